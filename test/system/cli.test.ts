/**
 * `npx edgecrawl` against a real `wrangler dev` and the loopback test site: the CLI runs as a child process, told
 * where edgecrawl is by EDGECRAWL_URL and EDGECRAWL_TOKEN, as a user runs it. Runs in Node (vitest project "system").
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  type CrawlView,
  freePort,
  type Sites,
  startSites,
  startWorker,
  type Worker,
} from '../../scripts/lib/local.ts';

const root = new URL('../../', import.meta.url).pathname;
const cli = join(root, 'cli/edgecrawl.ts');

let sites: Sites;
let worker: Worker;
let temp: string;

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'edgecrawl-cli-'));
  sites = await startSites(0);
  worker = await startWorker({ HOST_MIN_INTERVAL_MS: '0', CHECK_RESPONSES: 'true' });
});

afterAll(async () => {
  await worker?.stop();
  await sites?.stop();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  env?: Record<string, string>;
  /** Called once stdout has a first line (the crawl's id), with the child. */
  onFirstLine?: (child: ReturnType<typeof spawn>) => void;
}

/** Runs the CLI with this Node (22, as npx runs it) against the test's worker. */
async function run(args: string[], options: RunOptions = {}): Promise<Run> {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: temp,
    env: { ...process.env, EDGECRAWL_URL: worker.url, EDGECRAWL_TOKEN: worker.token, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let first = true;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (first && stdout.includes('\n') && options.onFirstLine) {
      first = false;
      options.onFirstLine(child);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('edgecrawl crawl --out', () => {
  let id: string;
  let seed: string;

  it('crawls, draws its progress, and writes one markdown file per page plus index.jsonl', async () => {
    // The root and 15 pages under it, five levels deep, each answered after 400 ms: a few seconds of progress to draw.
    seed = `${sites.siteA}/t/cli${Date.now().toString(36)}/pure-15-d400/`;
    const out = join(temp, 'site');
    const result = await run(['crawl', seed, '--max-pages', '50', '--out', out, '--progress', 'bar']);
    expect(result.stderr).not.toMatch(/edgecrawl: /);
    expect(result.code).toBe(0);
    id = result.stdout.trim();
    expect(id).toMatch(UUID);

    // Bar frames, redrawn in place: while running (rate, ETA), and the last one with the crawl's end.
    const frames = result.stderr.split('\r').filter((f) => f.startsWith('['));
    expect(frames.length).toBeGreaterThanOrEqual(2);
    expect(
      frames.some((f) =>
        /^\[[█░]{24}\] \d+\/\d+ · \d+ stored · 0 failed · \d+ pending · [\d.]+ pages\/s · ETA /.test(f),
      ),
    ).toBe(true);
    expect(frames.at(-1)).toMatch(/^\[█{24}\] 16\/16 · 16 stored · 0 failed · completed/);
    expect(result.stderr).toMatch(/wrote 16 markdown files for 16 pages/);

    const crawl = await api<CrawlView>(worker, `/v1/crawls/${id}`);
    expect(crawl.counts.stored).toBe(16);
    const markdown = filesUnder(out).filter((f) => f.endsWith('.md'));
    expect(markdown).toHaveLength(crawl.counts.stored);

    const index = readFileSync(join(out, 'index.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(index).toHaveLength(crawl.counts.stored);
    const host = new URL(seed).host.replace(':', '_');
    const base = `${host}${new URL(seed).pathname}`;
    const byUrl = new Map(index.map((line) => [line.url, line]));
    expect(byUrl.get(seed)).toMatchObject({ file: `${base}index.md`, status: 200, depth: 0 });
    expect(byUrl.get(`${seed}p7.html`)).toMatchObject({ file: `${base}p7.md`, status: 200, title: 'Tree page 7' });
    expect(new Set(index.map((l) => l.file)).size).toBe(16);
    for (const line of index) {
      const text = readFileSync(join(out, line.file), 'utf8');
      const page = /p(\d+)\.html$/.exec(line.url);
      if (page) expect(text, line.url).toContain(`Page ${page[1]} of 15`);
    }
    expect(markdown.map((f) => relative(out, f)).sort()).toEqual(index.map((l) => l.file).sort());
  });

  it('status shows the crawl', async () => {
    const result = await run(['status', id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`crawl ${id}: completed`);
    expect(result.stdout).toMatch(/stored 16 · failed 0/);
    const json = await run(['status', id, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id, status: 'completed', counts: { stored: 16 } });
  });

  it('export streams the page records as JSONL and CSV, and downloads a WARC', async () => {
    const jsonl = await run(['export', id, '--format', 'jsonl']);
    expect(jsonl.code).toBe(0);
    const records = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(16);
    expect(records.map((r) => r.url)).toContain(`${seed}p15.html`);

    const csvFile = join(temp, 'pages.csv');
    const csv = await run(['export', id, '--format', 'csv', '--out', csvFile]);
    expect(csv.code).toBe(0);
    const rows = readFileSync(csvFile, 'utf8').trim().split('\n');
    expect(rows[0]).toMatch(/^url,status,/);
    expect(rows).toHaveLength(17);

    const warcFile = join(temp, 'pages.warc.gz');
    const warc = await run(['export', id, '--format', 'warc', '--out', warcFile]);
    expect(warc.code).toBe(0);
    const bytes = readFileSync(warcFile);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  });
});

describe('edgecrawl crawl --out, duplicates', () => {
  it("names each duplicate's kept page in index.jsonl, and its file: each content is one file", async () => {
    const seed = `${sites.siteA}/t/clidup${Date.now().toString(36)}/shop/`;
    const out = join(temp, 'shop');
    const result = await run(['crawl', seed, '--max-pages', '200', '--out', out, '--progress', 'none']);
    expect(result.stderr).not.toMatch(/edgecrawl: /);
    expect(result.code).toBe(0);
    const crawl = await api<CrawlView>(worker, `/v1/crawls/${result.stdout.trim()}`);
    expect(crawl.counts).toMatchObject({ stored: 45, duplicates: 43, failed: 1 });
    const index = readFileSync(join(out, 'index.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; file: string | null; duplicateOf?: string; error?: string });
    expect(index).toHaveLength(89);
    const byUrl = new Map(index.map((line) => [line.url, line]));
    const [duplicate, kept] = [byUrl.get(`${seed}p/3.html`), byUrl.get(`${seed}p/3.html?ref=canonical`)];
    expect(kept?.file).toEqual(expect.any(String));
    expect(kept?.duplicateOf).toBeUndefined();
    expect(duplicate).toMatchObject({ file: kept?.file, duplicateOf: `${seed}p/3.html?ref=canonical` });
    expect(readFileSync(join(out, kept?.file ?? ''), 'utf8')).toContain('Product 3 is a fine thing');
    expect(index.filter((l) => l.error !== undefined)).toEqual([]);
    const markdown = filesUnder(out).filter((f) => f.endsWith('.md'));
    expect(markdown).toHaveLength(crawl.counts.stored);
    expect(new Set(index.flatMap((l) => (l.file ? [l.file] : []))).size).toBe(crawl.counts.stored);
  });
});

describe('edgecrawl crawl --wait, then cancel', () => {
  it('Ctrl-C stops the waiting, not the crawl; cancel stops the crawl', async () => {
    const seed = `${sites.siteA}/t/clic${Date.now().toString(36)}/pure-200-d1000/`;
    const waited = await run(['crawl', seed, '--wait', '--progress', 'lines'], {
      onFirstLine: (child) => setTimeout(() => child.kill('SIGINT'), 1500),
    });
    expect(waited.code).toBe(130);
    const id = waited.stdout.trim();
    expect(id).toMatch(UUID);
    expect(waited.stderr).toMatch(/\d+\/\d+ · \d+ stored · 0 failed · \d+ pending/);
    expect(waited.stderr).toContain(`stopped waiting: crawl ${id} goes on`);
    expect(waited.stderr).toContain(`npx edgecrawl cancel ${id}`);
    expect((await api<CrawlView>(worker, `/v1/crawls/${id}`)).status).toBe('running');

    const cancelled = await run(['cancel', id]);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toMatch(new RegExp(`^crawl ${id}: cancelled \\(\\d+ stored, 0 failed, \\d+ skipped\\)`));
    expect((await api<CrawlView>(worker, `/v1/crawls/${id}`)).status).toBe('cancelled');
  });
});

describe('edgecrawl scrape', () => {
  it('prints the markdown of one page, or the whole answer as JSON', async () => {
    const url = `${sites.siteA}/t/clis/pure-3/p2.html`;
    const markdown = await run(['scrape', url]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('Page 2 of 3');
    const json = await run(['scrape', url, '--format', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ url, status: 200 });
  });
});

describe('edgecrawl behind a login', () => {
  const ns = `clilogin${Date.now().toString(36)}`;
  const base = () => `${sites.siteA}/t/${ns}/private/`;
  /** The private site's secrets (test/support/private-site.ts); no output of the CLI may hold one. */
  const secrets = [`key-${ns}`, `sess-${ns}`, `pass-${ns}`];
  const expectNoSecret = (result: Run) => {
    for (const secret of secrets) expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
  };

  it('scrapes the private header page with --header', async () => {
    const url = `${base()}header/c.html`;
    const result = await run(['scrape', url, '--header', `X-Api-Key: key-${ns}`]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Header page header/c.html');
    const refused = await run(['scrape', url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/403/);
    expectNoSecret(result);
  });

  it('crawls the private pages with --header, --cookie and --user; status shows their names, never their values', async () => {
    const key = join(temp, 'login-headers.txt');
    writeFileSync(key, `X-Api-Key: key-${ns}\n`);
    const crawl = await run([
      'crawl',
      base(),
      '--max-pages',
      '20',
      '--header',
      `@${key}`,
      '--cookie',
      `session=sess-${ns}`,
      '--user',
      `user-${ns}:pass-${ns}`,
      '--wait',
      '--progress',
      'lines',
    ]);
    expect(crawl.stderr).not.toMatch(/edgecrawl: /);
    expect(crawl.code).toBe(0);
    const id = crawl.stdout.trim();
    expect(id).toMatch(UUID);
    const records = await run(['export', id, '--format', 'jsonl']);
    const statuses = new Map(
      records.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { url: string; status: number })
        .map((r) => [r.url.slice(base().length), r.status]),
    );
    for (const path of ['header/c.html', 'basic/b.html', 'cookie/a.html', 'cookie/a2.html'])
      expect(statuses.get(path), path).toBe(200);
    const status = await run(['status', id, '--json']);
    expect(JSON.parse(status.stdout).config.credentials).toEqual({
      hosts: [new URL(base()).hostname],
      headers: ['X-Api-Key'],
      cookies: [{ name: 'session', domain: null, path: '/', secure: false }],
      authenticate: true,
      login: null,
    });
    for (const result of [crawl, records, status, await run(['status', id])]) expectNoSecret(result);
  });

  it('status says when the site refused the credentials', async () => {
    const crawl = await run(['crawl', `${base()}header/c.html`, '-H', `X-Api-Key: wrong-${ns}`, '--wait']);
    expect(crawl.code).toBe(0);
    const status = await run(['status', crawl.stdout.trim()]);
    expect(status.stdout).toMatch(/ {2}access: 1 URL answered 401\/403 .*the credentials were refused/);
    expect(`${crawl.stdout}${crawl.stderr}${status.stdout}`).not.toContain(`wrong-${ns}`);
  });
});

/** A port on 127.0.0.1 nothing listens on (the OS gave it, then it was closed). */
const deadPort = freePort;

describe('edgecrawl errors', () => {
  it('a server not reached: exit 1, saying where and what to do', async () => {
    const url = `http://127.0.0.1:${await deadPort()}`;
    const result = await run(['status', '00000000-0000-4000-8000-000000000000'], { env: { EDGECRAWL_URL: url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot reach edgecrawl at ${url}`);
    expect(result.stderr).toContain('npm start');
    expect(result.stderr).toContain('EDGECRAWL_URL');
  });

  it('a token refused: exit 1, naming EDGECRAWL_TOKEN', async () => {
    const result = await run(['crawl', `${sites.siteA}/`], { env: { EDGECRAWL_TOKEN: 'wrong' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the token was refused \(401.*\): set EDGECRAWL_TOKEN/);
  });

  it('a bad crawl spec: exit 1 with the API message', async () => {
    const seed = `${sites.siteA}/t/clie/pure-3/`;
    const pages = await run(['crawl', seed, '--max-pages', '0']);
    expect(pages.code).toBe(1);
    expect(pages.stderr).toMatch(/invalid request body: maxPages: .* \(400 invalid_request\)/);
    const spec = await run(['crawl', seed, '--extract', '{"formats":["nope"]}']);
    expect(spec.code).toBe(1);
    expect(spec.stderr).toMatch(/invalid request body: extract\.formats\.0: .* \(400 invalid_request\)/);
    const json = await run(['crawl', seed, '--extract', '{"formats":']);
    expect(json.code).toBe(1);
    expect(json.stderr).toContain('--extract is not valid JSON');
    const unknown = await run(['status', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no crawl with id .* \(404 not_found\)/);
  });

  it('a command line it cannot read: exit 2 with the usage', async () => {
    const command = await run(['crawls']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command: crawls');
    expect(command.stderr).toContain('Usage: edgecrawl <command>');
    const flag = await run(['crawl', `${sites.siteA}/`, '--max-page', '3']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/Unknown option '--max-page'/);
    expect(flag.stderr).toContain('Usage: edgecrawl crawl');
    const value = await run(['crawl', `${sites.siteA}/`, '--max-pages', 'many']);
    expect(value.code).toBe(2);
    const format = await run(['export', '00000000-0000-4000-8000-000000000000', '--format', 'xml']);
    expect(format.code).toBe(2);
  });

  it('runs as `npx edgecrawl` from the repository', async () => {
    const child = spawn('npx', ['edgecrawl', '--help'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: edgecrawl <command>');
  });
});
