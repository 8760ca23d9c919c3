/**
 * npm run profile -- where the Worker's CPU time goes during a benchmark crawl. Starts `wrangler dev` with
 * the inspector on, records a V8 CPU profile of the Worker while it crawls the bench site, writes it to
 * PROFILE_OUT (bench.cpuprofile; open it in Chrome DevTools) and prints self time by area and the top functions.
 * Env: PAGES (2000), PAGE_KB (40), LINKS (20), LATENCY_MS (0).
 */
import { writeFileSync } from 'node:fs';
import { devtools } from './lib/devtools.ts';
import { crawlToEnd, startSites, startWorker } from './lib/local.ts';

const PAGES = Number(process.env.PAGES ?? 2000);
const PAGE_KB = Number(process.env.PAGE_KB ?? 40);
const LINKS = Number(process.env.LINKS ?? 20);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 0);
const OUT = process.env.PROFILE_OUT ?? 'bench.cpuprofile';
const INSPECTOR = 9300 + Math.floor(Math.random() * 500);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; scriptId: string };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The module each line of a bundle belongs to: esbuild heads every module with a `// path` comment.
 * Returns, per script, a function from a 0-based line to that module's path.
 */
function moduleLines(source: string): (line: number) => string {
  const starts: [number, string][] = [];
  source.split('\n').forEach((text, line) => {
    const m = /^\/\/ ((?:src|node_modules|\.\.\/)[^\s]*\.(?:ts|js|mjs|cjs))$/.exec(text);
    if (m) starts.push([line, m[1] as string]);
  });
  return (line) => {
    let found = '(bundle)';
    for (const [start, path] of starts) {
      if (start > line) break;
      found = path;
    }
    return found;
  };
}

/** Which part of the system a frame belongs to: a source file, a dependency, or the runtime. */
function area(node: ProfileNode, modules: Map<string, (line: number) => string>): string {
  const { url, functionName, scriptId, lineNumber } = node.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)' || functionName === '(program)') return functionName;
  const path = modules.get(scriptId)?.(lineNumber) ?? url;
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (dep) return `dep: ${dep[1]}`;
  const src = /src\/([\w/-]+)\.ts/.exec(path);
  if (src) return `src/${src[1]}`;
  return path ? `other: ${path.slice(-40)}` : `runtime: ${functionName || '(anonymous)'}`;
}

const sites = await startSites(0);
const worker = await startWorker(
  { HOST_MIN_INTERVAL_MS: '0', HOST_MAX_CONCURRENCY: '1000' },
  { args: ['--inspector-port', String(INSPECTOR)], ...(process.env.LOG_FILE ? { logFile: process.env.LOG_FILE } : {}) },
);
try {
  const session = await devtools(INSPECTOR);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  await session.send('Profiler.start');
  const started = performance.now();
  const variant = `bench-${PAGES}-${PAGE_KB}-${LINKS}${LATENCY_MS ? `-d${LATENCY_MS}` : ''}`;
  const crawl = await crawlToEnd(
    worker,
    // A plain crawl, as the profiles in docs were taken (crawls extract markdown and metadata by default).
    { seeds: [`${sites.siteA}/t/prof${Date.now().toString(36)}/${variant}/`], extract: null, maxPages: null },
    1_800_000,
    250,
  );
  const seconds = (performance.now() - started) / 1000;
  const { profile } = await session.send<{ profile: Profile }>('Profiler.stop');
  await session.send('Debugger.enable');
  const modules = new Map<string, (line: number) => string>();
  for (const scriptId of new Set(
    profile.nodes.filter((n) => n.callFrame.url.endsWith('.js')).map((n) => n.callFrame.scriptId),
  )) {
    const { scriptSource } = await session.send<{ scriptSource: string }>('Debugger.getScriptSource', { scriptId });
    modules.set(scriptId, moduleLines(scriptSource));
  }
  session.close();
  writeFileSync(OUT, JSON.stringify(profile));

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id) as ProfileNode;
    const where = area(node, modules);
    byArea.set(where, (byArea.get(where) ?? 0) + us);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const busy = total - (byArea.get('(idle)') ?? 0);
  const stored = crawl.counts.stored;
  console.log(
    `${stored} pages in ${seconds.toFixed(1)} s (${(stored / seconds).toFixed(1)} pages/s); Worker isolate busy ${(busy / 1000).toFixed(0)} ms = ${(busy / 1000 / stored).toFixed(2)} ms/page`,
  );
  console.log('\nself time by area (share of busy time):');
  for (const [name, us] of [...byArea]
    .sort((a, b) => b[1] - a[1])
    .filter(([n]) => n !== '(idle)')
    .slice(0, 20)) {
    console.log(
      `  ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${(us / 1000 / stored).toFixed(3)} ms/page  ${name}`,
    );
  }
  console.log('\ntop functions by self time:');
  for (const [name, us] of [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .filter(([n]) => !n.startsWith('(idle)'))
    .slice(0, 30)) {
    console.log(`  ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name}`);
  }
  console.log(`\nprofile written to ${OUT}`);
} finally {
  await worker.stop();
  await sites.stop();
}
