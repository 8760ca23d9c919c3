/**
 * npm run bench:coldstart -- the Worker bundle's size and its cold start. Builds the bundle as `wrangler deploy` would
 * (`wrangler deploy --dry-run --outdir`), reports its size and gzipped size (Cloudflare's Worker size limit applies to
 * the compressed upload), then starts a fresh workerd with it RUNS times and times each start until its first answer
 * (GET /v1/health), against a trivial Worker (one fetch handler) started the same way in the same run, in turns. The
 * trivial Worker's time is what workerd itself takes to start; the difference is what loading edgecrawl's bundle adds:
 * parsing and running its top-level code, what Cloudflare's Worker startup time limit (1 s) measures.
 * Env: RUNS (9).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { freePort, median } from './lib/local.ts';

const RUNS = Number(process.env.RUNS ?? 9);
const root = new URL('../', import.meta.url).pathname;
const workerd = join(root, 'node_modules/.bin/workerd');
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(
  readFileSync(join(root, 'wrangler.toml'), 'utf8'),
);

/** The bundle `wrangler deploy` would upload, written to `dir`; returns its JavaScript and WebAssembly modules. */
async function build(dir: string): Promise<string[]> {
  const child = spawn(join(root, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', dir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`wrangler deploy --dry-run exited with ${String(code)}`);
  return readdirSync(dir).filter((f) => /\.(js|mjs|wasm)$/.test(f));
}

/**
 * A workerd config serving `main` (an ES module in `dir`) on `port`, at the Worker's compatibility date (nodejs_compat,
 * its one flag, is the default from 2026-08-04 on).
 */
function capnp(dir: string, main: string, port: number): string {
  const path = join(dir, `config-${main}-${port}.capnp`);
  writeFileSync(
    path,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "${main}", esModule = embed "${main}")],
  compatibilityDate = "${compatibilityDate?.[1] ?? '2026-10-01'}",
);
`,
  );
  return path;
}

/** Milliseconds from starting workerd with `main` until it answers `path` (any HTTP answer). */
async function coldStart(dir: string, main: string, path: string): Promise<number> {
  const port = await freePort();
  const config = capnp(dir, main, port);
  const started = performance.now();
  const child = spawn(workerd, ['serve', config, '--experimental'], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (;;) {
      try {
        await (await fetch(`http://127.0.0.1:${port}${path}`)).arrayBuffer();
        return performance.now() - started;
      } catch {
        if (performance.now() - started > 30_000) throw new Error(`${main} did not answer within 30 s`);
        await new Promise((r) => setTimeout(r, 2));
      }
    }
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'edgecrawl-coldstart-'));
try {
  const modules = await build(dir);
  const bytes = modules.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
  const gzipped = modules.reduce((sum, f) => sum + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MiB`;
  console.log(`bundle: ${modules.join(', ')}: ${mib(bytes)}, gzipped ${mib(gzipped)}`);
  writeFileSync(join(dir, 'trivial.js'), "export default { fetch: () => new Response('ok') };\n");
  const [mains, trivials]: [number[], number[]] = [[], []];
  await coldStart(dir, 'trivial.js', '/'); // the first start of workerd reads its binary from disk: not counted
  for (let run = 0; run < RUNS; run++) {
    trivials.push(await coldStart(dir, 'trivial.js', '/'));
    mains.push(await coldStart(dir, 'index.js', '/v1/health'));
  }
  const [main, trivial] = [median(mains), median(trivials)];
  console.log(
    `cold start to the first answer, median of ${RUNS} (ms): edgecrawl ${main.toFixed(1)}, trivial Worker ${trivial.toFixed(1)}`,
  );
  console.log(
    `edgecrawl's bundle adds ${(main - trivial).toFixed(1)} ms (${(main / trivial).toFixed(2)}x the trivial Worker's start)`,
  );
  console.log(
    `runs (ms): edgecrawl ${mains.map((t) => t.toFixed(0)).join(' ')}; trivial ${trivials.map((t) => t.toFixed(0)).join(' ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
