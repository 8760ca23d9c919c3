#!/usr/bin/env node
// `npm start [-- wrangler dev args]`: applies the D1 migrations to the local database, runs `wrangler dev` (local
// Queues, Durable Objects, R2 and D1, persisted under .wrangler/state), and fires the cron triggers wrangler.toml
// declares, on their schedule, as Cloudflare does in production (`--no-crons` leaves them to you). Without a token
// from --var, .dev.vars or the API_TOKEN environment variable, the local API token is "dev-token". wrangler dev runs
// without the machine-wide dev registry and without fetching a sample Request.cf (scripts/lib/start-output.ts
// quietWranglerEnv): it prints its bindings once, and no stack trace offline.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { browserEnv, ensureLocalBrowser } from './lib/browser-setup.ts';
import { driveCrons } from './lib/cron-driver.ts';
import { migrationsLine, quietWranglerEnv, scheduledWarningFilter } from './lib/start-output.ts';

const argv = process.argv.slice(2);
const crons = !argv.includes('--no-crons');
const args = argv.filter((a) => a !== '--no-crons');
const wrangler = process.platform === 'win32' ? 'wrangler.cmd' : 'wrangler';

/** The value of a `--name value` or `--name=value` argument. */
function option(...names: string[]): string | undefined {
  for (const [i, a] of args.entries()) {
    for (const name of names) {
      if (a === name) return args[i + 1];
      if (a.startsWith(`${name}=`)) return a.slice(name.length + 1);
    }
  }
  return undefined;
}

// --persist-to must reach both commands so they share the same local state.
const persistTo = option('--persist-to');
const persist = persistTo === undefined ? [] : ['--persist-to', persistTo];
// Its output (the table of migrations, again after each one) is shown only when it fails; else one line sums it up.
const migrate = spawnSync(wrangler, ['d1', 'migrations', 'apply', 'DB', '--local', ...persist], {
  stdio: ['ignore', 'pipe', 'pipe'],
  encoding: 'utf8',
});
const migrated = migrationsLine(migrate.status, `${migrate.stdout ?? ''}${migrate.stderr ?? ''}`);
if (migrated === null) {
  process.stdout.write(migrate.stdout ?? '');
  process.stderr.write(migrate.stderr ?? '');
  if (migrate.error) console.error(`edgecrawl: wrangler d1 migrations apply: ${migrate.error.message}`);
  process.exit(migrate.status ?? 1);
}
console.log(migrated);

const hasToken =
  args.some((a, i) => (a === '--var' && args[i + 1]?.startsWith('API_TOKEN:')) || a.startsWith('--var=API_TOKEN:')) ||
  (existsSync('.dev.vars') && /^\s*API_TOKEN\s*=/m.test(readFileSync('.dev.vars', 'utf8')));
const extra: string[] = [];
if (!hasToken) {
  const token = process.env.API_TOKEN || 'dev-token';
  extra.push('--var', `API_TOKEN:${token}`);
  console.log(`edgecrawl: local API token is "${token}" (Authorization: Bearer ${token})`);
}

// Credentials of local crawls are sealed with a key of this checkout's own, made once and kept beside the local state
// (.wrangler is git-ignored), unless CREDENTIALS_KEY is given (--var, .dev.vars or the environment).
const givesKey =
  args.some(
    (a, i) => (a === '--var' && args[i + 1]?.startsWith('CREDENTIALS_KEY:')) || a.startsWith('--var=CREDENTIALS_KEY:'),
  ) ||
  (existsSync('.dev.vars') && /^\s*CREDENTIALS_KEY\s*=/m.test(readFileSync('.dev.vars', 'utf8')));
if (!givesKey)
  extra.push(
    '--var',
    `CREDENTIALS_KEY:${process.env.CREDENTIALS_KEY || localCredentialsKey(persistTo ?? '.wrangler')}`,
  );

// Workers AI runs only on Cloudflare: wrangler dev runs every binding locally (--local, offline, no login) and the model
// step uses LLM_BASE_URL (e.g. a local Ollama) or refuses json and summary (docs/models.md).
if (!args.includes('--remote')) extra.push(...(args.includes('--local') ? [] : ['--local']), '--var', 'WORKERS_AI:off');

// Locally the consumer's fetches follow the platform's six-connections rule too (wrangler dev does not enforce it).
if (!args.some((a) => a.includes('EMULATE_CONNECTION_LIMIT'))) extra.push('--var', 'EMULATE_CONNECTION_LIMIT:6');

// The BROWSER binding launches the Chromium from npm, not a downloaded Chrome (scripts/lib/browser-setup.ts); the
// shim it launches unpacks Chromium from this checkout when the temp folder was cleaned (browserEnv).
ensureLocalBrowser();
// stdout stays the terminal's (wrangler's hotkeys and colors); stderr passes through a filter that drops wrangler's
// "Scheduled Workers are not automatically triggered" warning when the cron driver below does trigger them. Its
// environment keeps it from saying things twice, or with stack traces offline (quietWranglerEnv).
const dev = spawn(wrangler, ['dev', ...extra, ...args], {
  stdio: ['inherit', 'inherit', crons ? 'pipe' : 'inherit'],
  env: { ...quietWranglerEnv(process.env), ...browserEnv() },
});
const stderrDone = new Promise<void>((resolve) => {
  if (!dev.stderr) return resolve();
  const keep = scheduledWarningFilter();
  createInterface({ input: dev.stderr, crlfDelay: Number.POSITIVE_INFINITY })
    .on('line', (line) => {
      if (keep(line)) process.stderr.write(`${line}\n`);
    })
    .on('close', resolve);
});
const host = option('--ip') ?? 'localhost';
const driver = crons
  ? driveCrons(
      option('--config', '-c') ?? 'wrangler.toml',
      `http://${host.includes(':') ? `[${host}]` : host}:${option('--port') ?? '8787'}`,
    )
  : null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => dev.kill(signal));
dev.on('exit', (code, signal) => {
  driver?.stop();
  // The last of wrangler's stderr passes the filter first (a second at most, should a child hold the pipe open).
  const exit = () => process.exit(code ?? (signal ? 1 : 0));
  void stderrDone.then(exit);
  setTimeout(exit, 1000).unref();
});

/** The local sealing key of crawls' credentials: made once (32 random bytes), kept in `dir`/credentials.key. */
function localCredentialsKey(dir: string): string {
  const file = join(dir, 'credentials.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
