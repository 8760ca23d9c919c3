import { describe, expect, it } from 'vitest';
import { warcExportSchema } from '../../src/api/responses';
import { allPages, api, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { checkWarcStructure, httpMessage, parseWarcGz, type WarcRecord } from '../support/warc';

/** Writes the crawl's WARC and reads it back, every record checked for structure. */
async function warcOf(id: string): Promise<WarcRecord[]> {
  const res = await api(`/v1/crawls/${id}/exports`, { method: 'POST' });
  expect(res.status).toBe(201);
  const written = warcExportSchema.parse(await res.json());
  const download = await api(written.download);
  expect(download.status).toBe(200);
  const records = parseWarcGz(new Uint8Array(await download.arrayBuffer()));
  expect(records).toHaveLength(written.records);
  expect(written.missing).toEqual([]);
  checkWarcStructure(records);
  return records;
}

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const content = (id: string, url: string, query = '') =>
  api(`/v1/crawls/${id}/content?url=${encodeURIComponent(url)}${query}`);
const recordsOf = (records: readonly WarcRecord[], url: string) =>
  records.filter((r) => r.headers.get('WARC-Target-URI') === url);
const typesOf = (records: readonly WarcRecord[]) => records.map((r) => r.headers.get('WARC-Type'));
const header = (headers: [string, string][], name: string) => headers.filter(([k]) => k === name).map(([, v]) => v);

describe('the WARC of a crawl that rendered pages', () => {
  it('holds what the server sent as the response, and the rendered DOM as a conversion record that refers to it', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/spa/`;
    const [app, ssr] = [`${root}app-1.html`, `${root}ssr-1.html`];
    const id = await createCrawl({ seeds: [app, ssr], maxDepth: 0, extract: { formats: ['markdown'] } });
    await waitForCrawl(id);
    const pages = await allPages(id);
    expect(pages.find((p) => p.url === app)?.rendered).toBe('auto: noscript-requires-js');
    expect(pages.find((p) => p.url === ssr)?.rendered).toBeNull();
    const records = await warcOf(id);
    expect(typesOf(records.slice(0, 1))).toEqual(['warcinfo']);

    // The rendered page: the exchange with the server, then the DOM the browser built from it.
    const ofApp = recordsOf(records, app);
    expect(typesOf(ofApp)).toEqual(['request', 'response', 'conversion']);
    const [request, response, conversion] = ofApp as [WarcRecord, WarcRecord, WarcRecord];
    const responseId = response.headers.get('WARC-Record-ID');
    expect(request.headers.get('WARC-Concurrent-To')).toBe(responseId);
    expect(conversion.headers.get('WARC-Refers-To')).toBe(responseId);

    const sent = httpMessage(response.block);
    const fetched = await content(id, app, '&source=fetched');
    expect(fetched.status).toBe(200);
    // The bytes the server sent, under the headers it sent them with (the site's own header among them).
    const asFetched = await bytesOf(fetched);
    expect(sent.payload).toEqual(asFetched);
    expect(new TextDecoder().decode(sent.payload)).toContain('<div id="root" data-page="app-1"');
    expect(sent.startLine).toBe('HTTP/1.1 200 OK');
    expect(header(sent.headers, 'content-type')).toEqual(['text/html; charset=utf-8']);
    expect(header(sent.headers, 'x-served-by')).toEqual(['spa-site']);
    // /content?source=fetched answers those bytes with the server's Content-Type too.
    expect(fetched.headers.get('content-type')).toBe('text/html; charset=utf-8');

    // The request as the crawler made it.
    const asked = httpMessage(request.block);
    expect(asked.startLine).toBe(`GET /t/${ns}/spa/app-1.html HTTP/1.1`);
    expect(header(asked.headers, 'host')).toEqual([new URL(app).host]);
    expect(header(asked.headers, 'user-agent')[0]).toContain('edgecrawl');
    expect(asked.payload.byteLength).toBe(0);

    // The conversion: the rendered DOM, byte for byte what GET /content answers for the page.
    const stored = await content(id, app);
    expect(conversion.headers.get('Content-Type')).toBe(stored.headers.get('content-type'));
    expect(conversion.block).toEqual(await bytesOf(stored));
    expect(new TextDecoder().decode(conversion.block)).toContain('app-1-token');
    expect(conversion.block).not.toEqual(asFetched);
    expect(conversion.headers.get('WARC-Date')).toBe(response.headers.get('WARC-Date'));

    // A page not rendered: its request and response, no conversion.
    const ofSsr = recordsOf(records, ssr);
    expect(typesOf(ofSsr)).toEqual(['request', 'response']);
    expect(httpMessage(ofSsr[1]!.block).payload).toEqual(await bytesOf(await content(id, ssr)));
  });

  it('a rendered page taken from the page cache keeps its HTML as fetched too: GET /content?source=fetched and the WARC', async () => {
    const root = `${site()}/t/${namespace()}/spa/`;
    const app = `${root}app-2.html`;
    const first = await createCrawl({ seeds: [app], maxDepth: 0, extract: { formats: ['markdown'] } });
    await waitForCrawl(first);
    const again = await createCrawl({ seeds: [app], maxDepth: 0, maxAge: 600, extract: { formats: ['markdown'] } });
    await waitForCrawl(again);
    const [page] = await allPages(again);
    const [original] = await allPages(first);
    // As the page it was copied from: rendered, the bytes the server sent.
    expect(original?.rendered).toBe('auto: noscript-requires-js');
    expect(page).toMatchObject({ url: app, cachedFrom: first, rendered: original?.rendered, bytes: original?.bytes });

    const fetched = await content(again, app, '&source=fetched');
    expect(fetched.status, await fetched.clone().text()).toBe(200);
    const asFetched = await bytesOf(fetched);
    expect(asFetched).toEqual(await bytesOf(await content(first, app, '&source=fetched')));

    // The copy's exchange is not copied (a cache hit stays one read): the response's headers are rebuilt.
    const ofApp = recordsOf(await warcOf(again), app);
    expect(typesOf(ofApp)).toEqual(['response', 'conversion']);
    const [response, conversion] = ofApp as [WarcRecord, WarcRecord];
    expect(httpMessage(response.block).payload).toEqual(asFetched);
    expect(conversion.headers.get('WARC-Refers-To')).toBe(response.headers.get('WARC-Record-ID'));
    expect(conversion.block).toEqual(await bytesOf(await content(again, app)));
  });
});
