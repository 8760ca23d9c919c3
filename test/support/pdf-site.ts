/**
 * A site of PDFs under /t/<ns>/pdf/ (made with pdf-lib, test/support/pdfs.ts):
 *   index.html      links to every document below
 *   report.pdf      3 pages of text with Info metadata (title, author, subject, language, dates)
 *   links.pdf       no Info title (its first line is its title); link annotations to a.html (relative) and b.html
 *                   (absolute), and c.html written in its text
 *   a.html, b.html, c.html   pages the links lead to
 *   scanned.pdf     two pages of drawn shapes only: no text layer
 *   broken.pdf      "%PDF-1.7" and then garbage
 *   encrypted.pdf   encrypted with a password
 *   truncated.pdf   the first half of report.pdf
 *   download        report.pdf sent as application/octet-stream
 *   huge.pdf        declared 200 MB, streamed (never held) until the client goes away
 *   huge-sent       JSON: bytes of huge.pdf written before the client went away, for this namespace
 */
import type http from 'node:http';
import { encryptedPdf, garbagePdf, imageOnlyPdf, prose, textPdf } from './pdfs.ts';

const HUGE_PDF_BYTES = 200 * 1024 * 1024;

const hugeSent = new Map<string, number>();
const made = new Map<string, Promise<Uint8Array>>();

/** Each document is made once per key (the same bytes each time it is served). */
function once(key: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  let bytes = made.get(key);
  if (!bytes) {
    bytes = make();
    made.set(key, bytes);
  }
  return bytes;
}

const report = () =>
  once('report', () =>
    textPdf({
      title: 'Quarterly Crawl Report',
      author: 'Ada Lovelace',
      subject: 'How the crawl went',
      language: 'en-GB',
      pages: [
        ['Introduction', 'The pdfreport token opens the report.', ...prose(1, 2)],
        ['Findings', 'The second page says pdfsecond plainly.', ...prose(2, 2)],
        ['Conclusion', 'The third page ends with pdfthird.'],
      ],
    }),
  );

const linked = (origin: string, ns: string) =>
  once(`links ${origin} ${ns}`, () =>
    textPdf({
      pages: [
        [
          'Links Handout',
          'This handout points at pages of the site.',
          `See also ${origin}/t/${ns}/pdf/c.html for more.`,
        ],
      ],
      links: { 0: ['a.html', `${origin}/t/${ns}/pdf/b.html`, 'mailto:someone@example.com'] },
    }),
  );

const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

const DOCUMENTS = [
  'report.pdf',
  'links.pdf',
  'scanned.pdf',
  'broken.pdf',
  'encrypted.pdf',
  'truncated.pdf',
  'download',
  'huge.pdf',
];

function streamHuge(key: string, res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(HUGE_PDF_BYTES) });
  const head = Buffer.from('%PDF-1.7\n');
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let written = 0;
  const pump = () => {
    while (written < HUGE_PDF_BYTES && !res.destroyed) {
      const piece = written === 0 ? Buffer.concat([head, chunk.subarray(head.length)]) : chunk;
      written += piece.length;
      hugeSent.set(key, written);
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

async function documentFor(rest: string, origin: string, ns: string): Promise<Uint8Array | null> {
  switch (rest) {
    case 'report.pdf':
    case 'download':
      return report();
    case 'links.pdf':
      return linked(origin, ns);
    case 'scanned.pdf':
      return once('scanned', () => imageOnlyPdf(2));
    case 'broken.pdf':
      return garbagePdf();
    case 'encrypted.pdf':
      return once('encrypted', encryptedPdf);
    case 'truncated.pdf': {
      const whole = await report();
      return whole.subarray(0, Math.floor(whole.length / 2));
    }
    default:
      return null;
  }
}

/** Serves the pdf variant; returns false when the path is not one of its own. */
export async function pdfSite(path: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  const m = /^\/t\/([A-Za-z0-9_-]+)\/pdf\/(.*)$/.exec(path);
  if (!m) return false;
  const [, ns, rest] = m as unknown as [string, string, string];
  const origin = `http://${req.headers.host ?? ''}`;
  const send = (type: string, body: string | Uint8Array) => {
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  };
  if (rest === '' || rest === 'index.html')
    send('text/html', html('PDFs', DOCUMENTS.map((d) => `<a href="${d}">${d}</a>`).join(' ')));
  else if (/^[abc]\.html$/.test(rest)) send('text/html', html(`Linked ${rest}`, `<p>Reached ${rest} from a PDF.</p>`));
  else if (rest === 'huge.pdf') streamHuge(ns, res);
  else if (rest === 'huge-sent') send('application/json', JSON.stringify({ bytes: hugeSent.get(ns) ?? 0 }));
  else {
    const bytes = await documentFor(rest, origin, ns);
    if (!bytes) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such document');
    } else send(rest === 'download' ? 'application/octet-stream' : 'application/pdf', bytes);
  }
  return true;
}
