/**
 * The README's walk-through, run as written against `npm start` (Node, vitest project "system"): the crawler started
 * with the arguments its comments give, a folder served by the command they give, then each `curl` command, whose
 * answer must have the shape its `# ...` comment shows (test/support/walkthrough.ts reads both). What is substituted,
 * and nothing else:
 * - port 8787 → a free port, given to npm start (`--port`, with `--persist-to` a fresh state and no interactive
 *   session: scripts/lib/local.ts startNpm);
 * - port 8000 → a free port, for the README's own `python3 -m http.server` command, in a folder made here;
 * - the crawl id the README shows (5b6291e5-…) → the one the create command answered.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startNpm, type Worker } from '../../scripts/lib/local.ts';
import { readShape, readWalkthrough, type Shape, shapeProblems } from '../support/walkthrough.ts';

const walkthrough = readWalkthrough(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));
const SHOWN_ID = '5b6291e5-…';

/** The folder to crawl: a home page linking pages of their own, a section with two posts, and a zip. */
const SITE: Record<string, string> = {
  'index.html': page('Home', '<a href="about.html">About</a> <a href="blog/">Blog</a> <a href="files/all.zip">all</a>'),
  'about.html': page('About', 'Who writes this site, and why. <a href="/">Home</a>'),
  'blog/index.html': page('Blog', '<a href="first.html">The first post</a> <a href="second.html">The second</a>'),
  'blog/first.html': page('The first post', 'A post about crawling a folder served on loopback.'),
  'blog/second.html': page('The second post', 'Another post, about reading what was stored.'),
  'files/all.zip': 'PK\u0005\u0006 not crawled: the walk-through excludes **/*.zip',
};

function page(title: string, body: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p></body></html>`;
}

let folder: string;
let server: ChildProcess;
let sitePort: number;
let worker: Worker;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'edgecrawl-walkthrough-'));
  for (const [path, text] of Object.entries(SITE)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  sitePort = await freePort();
  server = await serve(walkthrough.serve.replace(/\b8000\b/, String(sitePort)));
  worker = await startNpm(walkthrough.npmStartArgs);
});

afterAll(async () => {
  await worker?.stop();
  if (server?.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Runs the README's serve command (its port substituted) in the folder, once it answers. */
async function serve(command: string): Promise<ChildProcess> {
  const [program = '', ...args] = command.split(/\s+/);
  const child = spawn(program, args, { cwd: folder, stdio: 'ignore' });
  child.on('error', (error) => {
    throw new Error(`the README serves the folder with "${command}", which failed: ${error.message}`);
  });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${sitePort}/`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`"${command}" did not answer within 10 s`);
}

/** The command as written, but for the ports and the crawl id (see the top of this file). */
function substitute(command: string, id: string): string {
  return command
    .replaceAll('localhost:8787', `localhost:${new URL(worker.url).port}`)
    .replaceAll('127.0.0.1:8000', `127.0.0.1:${sitePort}`)
    .replaceAll(SHOWN_ID, id);
}

/** Runs the command in sh after the walk-through's variables (TOKEN=...), and answers what it printed. */
async function run(command: string): Promise<Buffer> {
  const script = [...walkthrough.variables, command].join('\n');
  const { stdout } = await promisify(execFile)('sh', ['-c', script], { encoding: 'buffer', timeout: 30_000 });
  return stdout;
}

function json(output: Buffer, command: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(output.toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${command} printed ${output.toString('utf8')}, not a JSON object`);
  return Object.fromEntries(Object.entries(parsed));
}

function expectShape(shape: Shape, answer: Record<string, unknown>, command: string): void {
  expect(shapeProblems(shape, answer), `${command}\nanswered ${JSON.stringify(answer)}`).toEqual([]);
}

/** Reruns the crawl's GET, as the README says to, until it is no longer running: the seconds it took. */
async function untilEnded(command: string): Promise<{ answer: Record<string, unknown>; seconds: number }> {
  const started = Date.now();
  for (;;) {
    const answer = json(await run(command), command);
    if (answer.status !== 'running') return { answer, seconds: (Date.now() - started) / 1000 };
    if (Date.now() - started > 60_000) throw new Error(`${command}: still running after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Follows the pages command's cursor, as its comment says, to the end: every URL listed. */
async function allPages(command: string, first: Record<string, unknown>): Promise<string[]> {
  const urls: string[] = [];
  let answer = first;
  for (let i = 0; i < 20; i++) {
    const pages = Array.isArray(answer.pages) ? answer.pages : [];
    for (const row of pages) urls.push(String(Object(row).url));
    if (answer.cursor === null) return urls;
    const next = command.replace('?limit=2', `?limit=2&cursor=${encodeURIComponent(String(answer.cursor))}`);
    answer = json(await run(next), next);
  }
  throw new Error(`${command}: the cursor was not null after 20 pages`);
}

describe("the README's walk-through, against npm start", () => {
  it('has commands whose answers its comments show, each shape readable', () => {
    expect(walkthrough.variables).toEqual(['TOKEN=dev-token']);
    expect(walkthrough.npmStartArgs).toEqual(
      expect.arrayContaining(['--var', 'ALLOW_PRIVATE_NETWORKS:true', 'HOST_MIN_INTERVAL_MS:0']),
    );
    expect(walkthrough.steps.length).toBeGreaterThanOrEqual(6);
    for (const step of walkthrough.steps) {
      expect(step.command, step.answer).toMatch(/^curl -s /);
      expect(step.answer, step.command).not.toBe('');
    }
  });

  it('answers each command as its comment shows', { timeout: 180_000 }, async () => {
    let id = SHOWN_ID;
    let status = '';
    const stored = new Set<string>();
    for (const step of walkthrough.steps) {
      const command = substitute(step.command, id);
      const output = await run(command);
      const shown = readShape(step.answer);
      if (shown === null) {
        await checkProse(step.answer, command, output);
        continue;
      }
      let answer = json(output, command);
      expectShape(shown.shape, answer, command);
      if (id === SHOWN_ID && typeof answer.id === 'string') {
        // The create command: the crawl runs.
        id = answer.id;
        expect(answer.status).toBe('running');
      }
      if (/^"completed" once nothing is queued or in flight/.test(shown.rest)) {
        const ended = await untilEnded(command);
        answer = ended.answer;
        expectShape(shown.shape, answer, command);
        console.log(`walk-through crawl: ${answer.status} after ${ended.seconds} s more`);
        status = String(answer.status);
        expect(status).toBe('completed');
      }
      if (/pass back as &cursor= for the next page; null at the end/.test(shown.rest))
        for (const url of await allPages(command, answer)) stored.add(url);
      if (/-X DELETE/.test(command)) expect(answer.status).toBe(status === 'running' ? 'cancelled' : status);
    }
    const pages = Object.keys(SITE).filter((path) => path.endsWith('.html'));
    const site = `http://127.0.0.1:${sitePort}/`;
    expect([...stored].sort()).toEqual(pages.map((path) => site + path.replace(/(^|\/)index\.html$/, '$1')).sort());
  });

  it('npm start says each thing once, offline too: one table of bindings, no stack trace', () => {
    const output = worker.output();
    expect(output.match(/has access to the following bindings/g)).toHaveLength(1);
    expect(output).not.toMatch(/ENOTFOUND|Unable to fetch the `Request\.cf` object|Connection status updated/);
    expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(output).toMatch(/Ready on http:\/\/localhost:\d+/);
  });
});

/** The answers the README describes in words: each gets its check, and one it does not know fails the test. */
async function checkProse(answer: string, command: string, output: Buffer): Promise<void> {
  if (answer.startsWith('the raw body, byte for byte, with its Content-Type')) {
    const asked = new URL(`http://${/'(localhost:\d+\/v1\/[^']+)'/.exec(command)?.[1]}`);
    const url = new URL(asked.searchParams.get('url') ?? '');
    const path = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
    expect(output.equals(Buffer.from(SITE[path.slice(1)] ?? '')), command).toBe(true);
    // The same request again, for its header (the command as written prints only the body).
    const res = await fetch(asked, { headers: { authorization: `Bearer ${worker.token}` } });
    expect(res.headers.get('content-type')).toMatch(/^text\/html\b/);
    return;
  }
  throw new Error(`README.md's walk-through shows an answer this test has no check for: ${answer}`);
}
