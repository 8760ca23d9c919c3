/**
 * The npm package as a user gets it (issue 34): built (`npm run build:package`), packed (`npm pack`), its tarball
 * installed into an empty folder with npm offline (the package has no dependencies: no registry is needed), then
 * `npx edgecrawl` there (--help, a scrape, a crawl with --out) against a real `wrangler dev` and the loopback test
 * site; and a script typed by the installed package's declarations alone: tsc compiles it (and refuses a wrong field),
 * then it runs. The Node that runs Vitest (22) runs npm, npx and the CLI; docs/cli.md, "The package".
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sites, startSites, startWorker, type Worker } from '../../scripts/lib/local.ts';

const root = new URL('../../', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

let sites: Sites | undefined;
let worker: Worker | undefined;
let temp: string;
/** The empty folder the tarball is installed into. */
let app: string;
let packed: PackResult;
/** The crawl `crawl --out` made. */
let crawlId: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface PackResult {
  filename: string;
  size: number;
  files: { path: string }[];
}

/**
 * The environment of npm and what it runs: this Node first on PATH (npx's `node` is the one running this test), npm
 * offline and never installing on its own (npx), nothing of the npm run that started Vitest (its project would be
 * this checkout), and the test's edgecrawl.
 */
function environment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(npm_(package|lifecycle|command|config_(local_prefix|prefix|global)$)|INIT_CWD$)/i.test(name),
    ),
  );
  return {
    ...env,
    PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
    npm_config_offline: 'true',
    npm_config_yes: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...(worker ? { EDGECRAWL_URL: worker.url, EDGECRAWL_TOKEN: worker.token } : {}),
  };
}

async function run(command: string, args: string[], cwd: string): Promise<Run> {
  const child = spawn(command, args, { cwd, env: environment(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { code, stdout, stderr };
}

async function succeed(command: string, args: string[], cwd: string): Promise<string> {
  const result = await run(command, args, cwd);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.stderr}\n${result.stdout}`);
  return result.stdout;
}

/** Builds the package, packs it, and installs the tarball into `app`, an empty folder but for its package.json. */
async function buildPackAndInstall(): Promise<PackResult> {
  const built = join(temp, 'package');
  await succeed(process.execPath, [join(root, 'scripts/build-package.ts'), built], root);
  const [result] = JSON.parse(
    await succeed('npm', ['pack', built, '--json', '--pack-destination', temp], temp),
  ) as PackResult[];
  if (!result) throw new Error('npm pack answered nothing');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'app', private: true, type: 'module' })}\n`);
  await succeed('npm', ['install', join(temp, result.filename)], app);
  return result;
}

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'edgecrawl-package-'));
  app = join(temp, 'app');
  // The package is built and installed while wrangler dev starts.
  const [s, w, p] = await Promise.allSettled([
    startSites(0),
    startWorker({ HOST_MIN_INTERVAL_MS: '0' }),
    buildPackAndInstall(),
  ]);
  if (s.status === 'fulfilled') sites = s.value;
  if (w.status === 'fulfilled') worker = w.value;
  for (const r of [s, w, p]) if (r.status === 'rejected') throw r.reason;
  if (p.status === 'fulfilled') packed = p.value;
});

afterAll(async () => {
  await worker?.stop();
  await sites?.stop();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const npx = (...args: string[]) => run('npx', ['edgecrawl', ...args], app);

describe('the tarball', () => {
  it('holds the CLI, the client and their declarations, and nothing of the repository', () => {
    expect(packed.filename).toBe(`edgecrawl-${version}.tgz`);
    expect(packed.files.map((f) => f.path).sort()).toEqual([
      'LICENSE',
      'README.md',
      'THIRD-PARTY-NOTICES.md',
      'bin/edgecrawl.js',
      'index.d.ts',
      'index.js',
      'openapi-fetch.d.ts',
      'openapi-typescript-helpers.d.ts',
      'openapi.d.ts',
      'package.json',
    ]);
    expect(packed.size).toBeLessThan(100_000);
  });

  it('installs with no dependencies: the folder holds the package alone', () => {
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/edgecrawl/package.json'), 'utf8'));
    expect(installed).toMatchObject({
      name: 'edgecrawl',
      version,
      license: 'MIT',
      bin: { edgecrawl: 'bin/edgecrawl.js' },
    });
    // The repository's license, as it is: MIT, the copyright of edgecrawl's contributors.
    const license = readFileSync(join(app, 'node_modules/edgecrawl/LICENSE'), 'utf8');
    expect(license).toBe(readFileSync(new URL('../../LICENSE', import.meta.url), 'utf8'));
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 edgecrawl contributors\n/);
    expect(installed.dependencies).toBeUndefined();
    expect(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['edgecrawl']);
  });
});

describe('npx edgecrawl, installed', () => {
  it('--help shows the usage', async () => {
    const help = await npx('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: edgecrawl <command> [options]');
  });

  it('scrape prints a page of the test site as markdown', async () => {
    const scraped = await npx('scrape', `${sites?.siteA}/t/pkgs/pure-3/p2.html`);
    expect(scraped.stderr).not.toMatch(/edgecrawl: /);
    expect(scraped.code).toBe(0);
    expect(scraped.stdout).toContain('Page 2 of 3');
  });

  it('crawl --out writes a markdown file per page and index.jsonl', async () => {
    const seed = `${sites?.siteA}/t/pkg${Date.now().toString(36)}/pure-5/`;
    const out = join(app, 'site');
    const crawled = await npx('crawl', seed, '--max-pages', '20', '--out', out, '--progress', 'none');
    expect(crawled.stderr).not.toMatch(/edgecrawl: /);
    expect(crawled.code).toBe(0);
    crawlId = crawled.stdout.trim();
    expect(crawlId).toMatch(/^[0-9a-f-]{36}$/);
    expect(crawled.stderr).toContain('wrote 6 markdown files for 6 pages');
    const index = readFileSync(join(out, 'index.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; file: string; status: number });
    expect(index).toHaveLength(6);
    const markdown = filesUnder(out).filter((f) => f.endsWith('.md'));
    expect(markdown.map((f) => relative(out, f)).sort()).toEqual(index.map((l) => l.file).sort());
    const base = `${new URL(seed).host.replace(':', '_')}${new URL(seed).pathname}`;
    expect(readFileSync(join(out, `${base}p4.md`), 'utf8')).toContain('Page 4 of 5');
  });
});

/** A script using the typed client, typed by the installed package's declarations and nothing else. */
const consumer = (url: string) => `import { createClient, type Schema } from 'edgecrawl';

// EDGECRAWL_URL and EDGECRAWL_TOKEN from the environment, as the CLI reads them.
const client = createClient();
const scraped = await client.POST('/v1/scrape', { body: { url: ${JSON.stringify(url)}, render: 'never' } });
if (scraped.error) throw new Error(scraped.error.error.message);
const page: Schema<'ScrapeResult'> = scraped.data;
const { data: list, error } = await client.GET('/v1/crawls', { params: { query: { limit: 100 } } });
if (error) throw new Error(\`\${error.error.code}: \${error.error.message}\`);
const crawls: { id: string; status: 'running' | 'completed' | 'cancelled' }[] = list.crawls;
console.log(JSON.stringify({ url: page.url, status: page.status, markdown: page.markdown, crawls }));
`;

/** The same calls, each with a mistake the declarations must catch. */
const WRONG = `import { createClient } from 'edgecrawl';

const client = createClient({ url: 'http://localhost:8787', token: 'dev-token' });
await client.POST('/v1/crawls', { body: { seed: ['https://example.com/'] } });
await client.POST('/v1/crawls', { body: { seeds: ['https://example.com/'], maxPages: 'ten' } });
const { data } = await client.GET('/v1/crawls/{id}', { params: { path: { id: 'x' } } });
console.log(data?.countz);
await client.GET('/v1/crawlz', {});
`;

/**
 * tsc's errors in files of `app`, by file, as in a user's ESM project with DOM's types (fetch's) and no @types; the
 * package's declarations are checked too (skipLibCheck false).
 */
function typeErrors(files: string[]): Record<string, string[]> {
  const program = ts.createProgram(
    files.map((file) => join(app, file)),
    {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    },
  );
  const errors: Record<string, string[]> = {};
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file ? relative(app, d.file.fileName) : '(global)';
    const line = d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : 0;
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0];
    errors[file] = [...(errors[file] ?? []), `${line}: ${message}`];
  }
  return errors;
}

describe('the typed client, installed', () => {
  it("compiles against the declarations alone, as does its README's example, and refuses a wrong path, field or type", () => {
    writeFileSync(join(app, 'consumer.ts'), consumer(`${sites?.siteA}/t/pkgc/pure-3/p1.html`));
    writeFileSync(join(app, 'wrong.ts'), WRONG);
    const readme = readFileSync(join(app, 'node_modules/edgecrawl/README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toContain("from 'edgecrawl'");
    writeFileSync(join(app, 'readme.ts'), example ?? '');
    const errors = typeErrors(['consumer.ts', 'readme.ts', 'wrong.ts']);
    expect(Object.keys(errors)).toEqual(['wrong.ts']);
    expect(errors['wrong.ts']).toEqual([
      expect.stringMatching(/^4: .*'seed' does not exist in type '\{ seeds: string\[\];/),
      "5: Type 'string' is not assignable to type 'number'.",
      expect.stringMatching(/^7: Property 'countz' does not exist on type/),
      `8: Argument of type '"/v1/crawlz"' is not assignable to parameter of type 'PathsWithMethod<paths, "get">'.`,
    ]);
  });

  it('runs: scrapes a page and lists the crawls', async () => {
    const source = readFileSync(join(app, 'consumer.ts'), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(app, 'consumer.js'), outputText);
    const ran = await run(process.execPath, ['consumer.js'], app);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const answer = JSON.parse(ran.stdout);
    expect(answer).toMatchObject({ url: `${sites?.siteA}/t/pkgc/pure-3/p1.html`, status: 200 });
    expect(answer.markdown).toContain('Page 1 of 3');
    expect(answer.crawls).toContainEqual(expect.objectContaining({ id: crawlId, status: 'completed' }));
  });
});
