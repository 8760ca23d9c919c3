/**
 * Helpers for scripts that run the crawler locally: the test site in its own process, and
 * `wrangler dev` on a fresh state directory, driven through the public API.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { browserEnv, ensureLocalBrowser } from './browser-setup.ts';
import { quietWranglerEnv } from './start-output.ts';

export interface Sites {
  siteA: string;
  siteB: string;
  portA: number;
  hosts: string[];
  stop(): Promise<void>;
}

const root = new URL('../../', import.meta.url).pathname;

export async function startSites(extraHosts: number): Promise<Sites> {
  const child = spawn(process.execPath, [join(root, 'test/support/site-process.ts'), String(extraHosts)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const sites = JSON.parse(line) as Omit<Sites, 'stop'>;
  return {
    ...sites,
    stop: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export interface Worker {
  url: string;
  token: string;
  /** The workerd process tree's root (wrangler). */
  process: ChildProcess;
  /** The local state directory (D1, R2, Durable Objects, queues). */
  state: string;
  /** Stops wrangler and workerd, and removes the state unless it was given. */
  stop(): Promise<void>;
  /** Kills wrangler and workerd at once (SIGKILL), leaving the state as it is. */
  kill(): Promise<void>;
  /** What it printed so far, stdout and stderr interleaved (the first MiB; all of it goes to logFile, if given). */
  output(): string;
}

export interface WorkerOptions {
  port?: number;
  /** Reuse this state directory (kept on stop) instead of a fresh temporary one. */
  state?: string;
  /** More `wrangler dev` arguments (`--inspector-port 9300`, `--config other.toml`). */
  args?: string[];
  /**
   * Messages per frontier consumer batch (max_batch_size); up to TASKS_PER_MESSAGE (src/queues/frontier.ts) times as
   * many pages are what one consumer invocation fetches at once.
   * Runs on a copy of wrangler.toml that differs only in that.
   */
  batchSize?: number;
  /** The frontier consumers' max_batch_timeout, seconds (same mechanism). */
  batchTimeout?: number;
  /** Write wrangler's output (queue batch timings, the Worker's logs) to this file. */
  logFile?: string;
  /** Start it as a user does, with `npm start` (which applies migrations and fires the cron triggers). */
  npmStart?: boolean;
}

/** A TCP port free on 127.0.0.1 now (the OS picks it), so parallel runs do not collide. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/**
 * wrangler dev's inspector on a port of its own. Left to itself, each wrangler dev tries 9229 and, when it looks taken,
 * another: two started at the same moment (the system tests run two files at a time) both take 9229, and one dies with
 * "Address already in use".
 */
async function inspectorPort(): Promise<string[]> {
  return ['--inspector-port', String(await freePort())];
}

/**
 * Starts on `port`, or on a free port: another if something took that one before wrangler bound it (the port is free
 * when picked, not reserved, so a process starting beside it can take it; two system test files start at once).
 */
async function onFreePort(port: number | undefined, start: (port: number) => Promise<Worker>): Promise<Worker> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(port ?? (await freePort()));
    } catch (error) {
      if (port !== undefined || attempt === 3 || !String(error).includes('Address already in use')) throw error;
    }
  }
}

/** Starts `wrangler dev` on a free port with a fresh local state (migrations applied). */
export async function startWorker(vars: Record<string, string>, options: WorkerOptions = {}): Promise<Worker> {
  // The BROWSER binding launches the Chromium from npm, should the Worker use it (scripts/lib/browser-setup.ts).
  ensureLocalBrowser({ log: () => {} });
  return onFreePort(options.port, (port) => startWorkerOn(port, vars, options));
}

async function startWorkerOn(port: number, vars: Record<string, string>, options: WorkerOptions): Promise<Worker> {
  const state = options.state ?? mkdtempSync(join(tmpdir(), 'edgecrawl-'));
  const wrangler = join(root, 'node_modules/.bin/wrangler');
  if (!options.npmStart) {
    const migrate = spawnSync(wrangler, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], {
      cwd: root,
      encoding: 'utf8',
    });
    if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr}`);
  }
  const token = 'bench-token';
  const args = [
    'dev',
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--persist-to',
    state,
    '--show-interactive-dev-session=false',
    // Every binding local (Workers AI needs Cloudflare: off, see wrangler.toml's [ai]).
    '--local',
    ...(options.args?.includes('--inspector-port') ? [] : await inspectorPort()),
    ...batchConfig(options),
    ...(options.args ?? []),
  ];
  for (const [name, value] of Object.entries({
    API_TOKEN: token,
    ALLOW_PRIVATE_NETWORKS: 'true',
    // Cloudflare's six connections per invocation, as deployed (EMULATE_CONNECTION_LIMIT=0 in the environment: off).
    EMULATE_CONNECTION_LIMIT: process.env.EMULATE_CONNECTION_LIMIT ?? '6',
    WORKERS_AI: 'off',
    // Seals crawls' credentials (docs/credentials.md), as npm start's key of the checkout does: one fixed key, so that
    // a worker started again on the same state opens what the first one sealed.
    CREDENTIALS_KEY: 'local-test-credentials-key-0123456789abcdef',
    ...vars,
  }))
    args.push('--var', `${name}:${value}`);
  // npm start sets wrangler's environment itself (scripts/start.ts); wrangler alone gets the same.
  const launch: Launch = options.npmStart
    ? { command: 'npm', args: ['start', '--', ...args.slice(1)], env: process.env }
    : { command: wrangler, args, env: { ...quietWranglerEnv(process.env), ...browserEnv() } };
  const where = { url: `http://127.0.0.1:${port}`, token, state, ownState: !options.state };
  return launchWorker(launch, where, options).catch((error: unknown) => {
    if (where.ownState) rmSync(state, { recursive: true, force: true });
    throw error;
  });
}

/**
 * `npm start -- <args>` as a user types it (without API_TOKEN in the environment: the token is "dev-token"), on a
 * free port (`--port`, added) with a fresh local state (`--persist-to`, added), listening where npm start does
 * (localhost). The README's walk-through runs this way (test/system/readme-walkthrough.test.ts).
 */
export async function startNpm(args: string[], options: Pick<WorkerOptions, 'logFile'> = {}): Promise<Worker> {
  return onFreePort(undefined, async (port) => {
    const state = mkdtempSync(join(tmpdir(), 'edgecrawl-'));
    const { API_TOKEN: _, ...env } = process.env;
    const npmArgs = ['start', '--', ...args, '--port', String(port), '--persist-to', state, ...(await inspectorPort())];
    const launch = { command: 'npm', args: [...npmArgs, '--show-interactive-dev-session=false'], env };
    const where = { url: `http://localhost:${port}`, token: 'dev-token', state, ownState: true };
    return launchWorker(launch, where, options).catch((error: unknown) => {
      rmSync(state, { recursive: true, force: true });
      throw error;
    });
  });
}

/**
 * A copy of wrangler.toml that differs only in the frontier consumers' batch settings, if options set them: the size
 * of all three, the timeout of the two that deliver at once (the paced queue's wait is what it is for).
 */
function batchConfig(options: WorkerOptions): string[] {
  if (options.batchSize === undefined && options.batchTimeout === undefined) return [];
  const path = join(root, `.wrangler-batch-${options.batchSize ?? 'd'}-${options.batchTimeout ?? 'd'}.toml`);
  let toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
  if (options.batchSize !== undefined)
    toml = toml.replace(
      /(queue = "edgecrawl-frontier(?:-high|-paced)?"\nmax_batch_size = )\d+/g,
      `$1${options.batchSize}`,
    );
  if (options.batchTimeout !== undefined)
    toml = toml.replace(
      /(queue = "edgecrawl-frontier(?:-high)?"\nmax_batch_size = \d+\nmax_batch_timeout = )\d+/g,
      `$1${options.batchTimeout}`,
    );
  writeFileSync(path, toml);
  return ['--config', path];
}

interface Launch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

interface Where {
  url: string;
  token: string;
  state: string;
  /** Remove the state on stop (it was made for this Worker). */
  ownState: boolean;
}

/** Runs the command in the checkout, in a process group of its own, and answers once it says "Ready on". */
async function launchWorker(launch: Launch, where: Where, options: Pick<WorkerOptions, 'logFile'>): Promise<Worker> {
  const child = spawn(launch.command, launch.args, {
    cwd: root,
    env: launch.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not start:\n${output}`)), 60_000);
    let ready = false;
    // It keeps listening after ready, so output() holds what came later (up to a MiB).
    const onData = (chunk: Buffer) => {
      if (output.length < 1 << 20) output += chunk.toString();
      if (!ready && /Ready on/.test(output)) {
        ready = true;
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`wrangler dev exited with ${code}:\n${output}`)));
  });
  if (options.logFile) {
    const log = createWriteStream(options.logFile);
    log.write(output);
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  } else {
    child.stdout?.resume();
    child.stderr?.resume();
  }
  const exited = once(child, 'exit').catch(() => undefined);
  const signal = async (name: NodeJS.Signals) => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, name);
      } catch {
        // already gone
      }
    }
    await exited;
  };
  return {
    url: where.url,
    token: where.token,
    process: child,
    state: where.state,
    stop: async () => {
      await signal('SIGTERM');
      if (where.ownState) rmSync(where.state, { recursive: true, force: true });
    },
    kill: () => signal('SIGKILL'),
    output: () => output,
  };
}

export async function api<T>(worker: Worker, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${worker.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${worker.token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  const body = (await res.json()) as T;
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export interface CrawlView {
  id: string;
  status: string;
  counts: { discovered: number; fetched: number; stored: number; failed: number; skipped: number };
}

export async function crawlToEnd(
  worker: Worker,
  request: Record<string, unknown>,
  timeoutMs = 600_000,
  pollMs = 100,
): Promise<CrawlView> {
  const { id } = await api<{ id: string }>(worker, '/v1/crawls', { method: 'POST', body: JSON.stringify(request) });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const crawl = await api<CrawlView>(worker, `/v1/crawls/${id}`);
    if (crawl.status !== 'running') return crawl;
    if (Date.now() > deadline) throw new Error(`crawl ${id} did not finish in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** A bench Worker under `wrangler dev`: its URL, its process group (for CPU time), and how to stop it. */
export interface BenchWorker {
  url: string;
  pgid: number;
  stop: () => void;
}

/**
 * Starts `wrangler dev` with a bench Worker's own config (no bindings, no state); `stop` ends it. Its inspector has a
 * port of its own: bench:extract starts this tree's Worker and the baseline's at once.
 */
export async function startBenchWorker(configPath: string): Promise<BenchWorker> {
  const port = await freePort();
  const child = spawn(
    join(root, 'node_modules/.bin/wrangler'),
    [
      'dev',
      '--config',
      configPath,
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--show-interactive-dev-session=false',
      // Every binding local (Workers AI needs Cloudflare: off, see wrangler.toml's [ai]).
      '--local',
      ...(await inspectorPort()),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: quietWranglerEnv(process.env) },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready on/.test(output)) resolve();
      // wrangler dev stays up after a failed build, waiting for a change that would fix it: not ready, ever.
      if (/Build failed/.test(output) && child.pid) {
        process.kill(-child.pid, 'SIGTERM');
        reject(new Error(`wrangler dev could not build ${configPath}:\n${output}`));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => reject(new Error(`wrangler dev exited:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pgid: child.pid ?? 0,
    stop: () => {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    },
  };
}
