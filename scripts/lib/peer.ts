/**
 * The peer side of `npm run bench:peer`: Crawlee installed into a temporary folder (never a dependency of
 * edgecrawl), its runs, and the sites both crawl (the synthetic bench site, or a documentation set served
 * statically).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostLogEntry } from '../../test/support/host-log.ts';
import { startSites } from './local.ts';
import { cpuSeconds } from './proc.ts';
import { startStaticSite } from './static-site.ts';

const root = new URL('../../', import.meta.url).pathname;
const node = join(root, 'node_modules/.bin/node');
/** Crawlee's plain crawl; and what its same job needs: the DOM crawler, Readability, turndown and its GFM plugin. */
const PLAIN = ['@crawlee/cheerio@3.18.1'];
const JOB = ['@crawlee/jsdom@3.18.1', '@mozilla/readability@0.6.0', 'turndown@7.2.5', 'turndown-plugin-gfm@1.0.2'];

/** The peer's own folder: Crawlee (and with `job`, the same job's packages) installed once, the runners beside. */
export function preparePeer(job: boolean): string {
  const dir = join(tmpdir(), 'edgecrawl-peer-crawlee');
  const wanted = job ? [...PLAIN, ...JOB] : PLAIN;
  const missing = wanted.filter((spec) => !existsSync(join(dir, 'node_modules', spec.slice(0, spec.lastIndexOf('@')))));
  if (missing.length > 0) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json')))
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'edgecrawl-peer', private: true, type: 'module' }),
      );
    console.log(`installing ${missing.join(' ')} into ${dir} ...`);
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', ...missing], { cwd: dir, stdio: 'inherit' });
    if (npm.status !== 0) throw new Error('npm install of the peer failed');
  }
  for (const script of ['crawlee.mjs', 'crawlee-extract.mjs'])
    copyFileSync(join(root, 'scripts/peer', script), join(dir, script));
  return dir;
}

export interface Result {
  /** Pages the crawler itself counts as done (edgecrawl: stored; Crawlee: handled). */
  pages: number;
  pagesPerSecond: number;
  cpuMsPerPage: number;
  /** Most requests of the run in flight at the site at once. */
  inFlight: number;
  /** Distinct HTML pages the site served this crawl, when it counts them. */
  served: number | null;
}

/** A site to crawl: each crawl gets a namespace of its own in it. */
export interface Target {
  seed(ns: string): string;
  /** Pages a whole crawl has, when the site knows it in advance. */
  expected: number | null;
  /** More of edgecrawl's crawl request (limits, scope). */
  request: Record<string, unknown>;
  inFlight(ns: string): Promise<number>;
  served(ns: string): number | null;
  describe: string;
  latencyMs: number;
  stop(): Promise<void>;
}

export interface Crawler {
  name: string;
  script: string;
  fixed: boolean;
}

/** One Crawlee crawl in its own Node process: its pages/s, and its CPU (its own count, or /proc's, the larger). */
export async function runCrawlee(
  dir: string,
  crawler: Crawler,
  target: Target,
  ns: string,
  concurrency: number,
): Promise<Result> {
  const child = spawn(node, [crawler.script, target.seed(ns), String(concurrency)], {
    cwd: dir,
    env: { ...process.env, PERSIST: '0', FIXED: crawler.fixed ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let cpu = 0;
  // The child's CPU, sampled until it exits (its /proc entry is gone after).
  const sampler = setInterval(() => (cpu = Math.max(cpu, cpuSeconds([child.pid as number]))), 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`${crawler.script} exited with ${code}: ${out}`);
  const last = JSON.parse(out.trim().split('\n').at(-1) as string) as {
    pages: number;
    seconds: number;
    failed: number;
    cpuMs?: number;
  };
  if (target.expected !== null && last.pages !== target.expected)
    throw new Error(`${crawler.name} crawled ${last.pages} of ${target.expected} pages`);
  return {
    pages: last.pages,
    pagesPerSecond: last.pages / last.seconds,
    cpuMsPerPage: Math.max(cpu * 1000, last.cpuMs ?? 0) / last.pages,
    inFlight: await target.inFlight(ns),
    served: target.served(ns),
  };
}

/** The synthetic bench site (test/support/site.ts): PAGES pages of PAGE_KB with LINKS links, LATENCY_MS each. */
export async function syntheticTarget(): Promise<Target> {
  const pages = Number(process.env.PAGES ?? 5000);
  const pageKb = Number(process.env.PAGE_KB ?? 40);
  const links = Number(process.env.LINKS ?? 20);
  const latencyMs = Number(process.env.LATENCY_MS ?? 0);
  const variant = `bench-${pages}-${pageKb}-${links}${latencyMs ? `-d${latencyMs}` : ''}`;
  const sites = await startSites(0);
  return {
    seed: (ns) => `${sites.siteA}/t/${ns}/${variant}/`,
    expected: pages + 1,
    request: {},
    inFlight: async (ns) => {
      const log = (await (await fetch(`${sites.siteA}/__hostlog`)).json()) as { entries: HostLogEntry[] };
      return Math.max(0, ...log.entries.filter((e) => e.path.startsWith(`/t/${ns}/`)).map((e) => e.concurrent));
    },
    served: () => null,
    describe: `${pages + 1} pages of ~${pageKb} KB with ${links} links, ${latencyMs} ms latency per response`,
    latencyMs,
    stop: () => sites.stop(),
  };
}

/** A documentation set served statically, crawled whole from its index.html, within its host. */
export async function docsTarget(dir: string): Promise<Target> {
  const site = await startStaticSite(dir);
  return {
    seed: (ns) => `${site.url}/${ns}/index.html`,
    expected: null,
    request: { scope: 'same-host', maxPages: 100_000 },
    inFlight: async (ns) => site.stats(ns).peakInFlight,
    served: (ns) => site.stats(ns).html,
    describe: `the documentation set in ${dir}, crawled whole from its index.html`,
    latencyMs: 0,
    stop: () => site.stop(),
  };
}
