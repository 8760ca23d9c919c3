/**
 * npm run measure:pdf -- what reading a PDF costs in Node, with the crawler's own code (src/domain/pdf/read.ts readPdf
 * and pdf/record.ts, unpdf's pdf.js): wall time, CPU (process.cpuUsage) and peak memory (growth of the maximum RSS
 * over the process's RSS once pdf.js is loaded and warm) per document, each run in a child process of its own, the
 * median of RUNS runs (default 5) printed. Documents (made with pdf-lib, test/support/pdfs.ts): text PDFs of 10 to
 * 2,000 pages, and 20 pages of text with an attached file of 5 to 50 MB (bytes pdf.js holds without reading them as
 * text). Each is read with PDF_LIMITS, and uncapped (no page or byte cap) to show what the caps save. A run past
 * TIMEOUT seconds (default 60) is killed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { prose, textPdf } from '../test/support/pdfs.ts';

const URL_ = 'https://measure.example/doc.pdf';
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** In the child: one read of the file, one JSON line of its costs. */
async function measureOne(file: string, uncapped: boolean): Promise<void> {
  register('./lib/ts-resolve.mjs', import.meta.url);
  const { readPdf } = await import('../src/domain/pdf/read.ts');
  const { pdfExtract } = await import('../src/domain/pdf/record.ts');
  const { PDF_LIMITS } = await import('../src/domain/pdf/document.ts');
  const limits = uncapped ? { ...PDF_LIMITS, bytes: Number.MAX_SAFE_INTEGER, pages: 1_000_000 } : PDF_LIMITS;
  const data = readFileSync(file);
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength); // no copy: the peak below is pdf.js's
  const small = await textPdf({ pages: [['warm up']] });
  await readPdf(small, URL_, limits); // pdf.js loaded and its code warm
  const baseRss = process.memoryUsage().rss;
  const cpu0 = cpuMs();
  const wall0 = performance.now();
  const read = await readPdf(bytes, URL_, limits);
  const spec = {
    formats: ['markdown' as const, 'text' as const],
    mainContent: true,
    include: [],
    exclude: [],
    fields: {},
  };
  const extract = await pdfExtract(read, bytes, URL_, spec);
  const wallMs = performance.now() - wall0;
  const cpu = cpuMs() - cpu0;
  const peakMb = (process.resourceUsage().maxRSS * 1024 - baseRss) / 1024 / 1024;
  const out = {
    wallMs,
    cpuMs: cpu,
    peakMb: Math.max(0, peakMb),
    pagesRead: read.pages.length,
    words: extract.wordCount,
  };
  process.stdout.write(`${JSON.stringify({ ...out, warnings: read.warnings })}\n`);
}

interface Run {
  wallMs: number;
  cpuMs: number;
  peakMb: number;
  pagesRead: number;
  words: number;
  warnings: string[];
}

function runChild(file: string, uncapped: boolean, timeoutS: number): Promise<Run | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [new URL(import.meta.url).pathname, file, uncapped ? 'uncapped' : 'capped']);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', () => undefined);
    child.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as Run);
      } catch {
        resolve(null);
      }
    });
  });
}

/** 20 pages of text with a file of `mb` MB attached (deterministic bytes, not compressible by much). */
async function withAttachment(mb: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await textPdf({ pages: Array.from({ length: 20 }, (_, i) => prose(i, 4)) }));
  const blob = new Uint8Array(mb * 1024 * 1024);
  let x = 2463534242;
  for (let i = 0; i < blob.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    blob[i] = x & 0xff;
  }
  await doc.attach(blob, 'data.bin', { mimeType: 'application/octet-stream' });
  return doc.save({ useObjectStreams: false });
}

async function documents(dir: string): Promise<{ name: string; file: string; bytes: number }[]> {
  const made: [string, Promise<Uint8Array>][] = [
    ...[10, 100, 500, 2000].map((pages): [string, Promise<Uint8Array>] => [
      `text, ${pages} pages`,
      textPdf({ title: 'Measured', pages: Array.from({ length: pages }, (_, i) => prose(i, 4)) }),
    ]),
    ...[5, 20, 50].map((mb): [string, Promise<Uint8Array>] => [`20 pages + ${mb} MB attached`, withAttachment(mb)]),
  ];
  const out: { name: string; file: string; bytes: number }[] = [];
  for (const [name, bytes] of made) {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.pdf`);
    const data = await bytes;
    writeFileSync(file, data);
    out.push({ name, file, bytes: data.byteLength });
  }
  return out;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  const runs = Number(process.env.RUNS ?? 5);
  const timeoutS = Number(process.env.TIMEOUT ?? 60);
  const dir = join(tmpdir(), 'measure-pdf');
  mkdirSync(dir, { recursive: true });
  console.log('document | MB | limits | pages read | wall ms | CPU ms | peak MB | warnings');
  for (const doc of await documents(dir)) {
    for (const uncapped of [false, true]) {
      const results: Run[] = [];
      for (let i = 0; i < runs; i++) {
        const run = await runChild(doc.file, uncapped, timeoutS);
        if (run) results.push(run);
      }
      const mb = (doc.bytes / 1024 / 1024).toFixed(1);
      if (results.length === 0) {
        console.log(`${doc.name} | ${mb} | ${uncapped ? 'none' : 'PDF_LIMITS'} | killed after ${timeoutS} s`);
        continue;
      }
      const m = (key: 'wallMs' | 'cpuMs' | 'peakMb') => median(results.map((r) => r[key])).toFixed(0);
      const first = results[0] as Run;
      console.log(
        `${doc.name} | ${mb} | ${uncapped ? 'none' : 'PDF_LIMITS'} | ${first.pagesRead} | ${m('wallMs')} | ${m('cpuMs')} | ${m('peakMb')} | ${first.warnings.join('; ')}`,
      );
    }
  }
}

const [file, mode] = process.argv.slice(2);
if (file) await measureOne(file, mode === 'uncapped');
else await main();
