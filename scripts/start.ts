#!/usr/bin/env node
// `npm start [-- wrangler dev args]`: applies the D1 migrations to the local database, runs `wrangler dev` (local
// Queues, Durable Objects, R2 and D1, persisted under .wrangler/state), and fires the cron triggers wrangler.toml
// declares, on their schedule, as Cloudflare does in production (`--no-crons` leaves them to you). Without a token
// from --var, .dev.vars, an env file or the API_TOKEN environment variable, the local API token is "dev-token"; it
// reaches wrangler dev in a file, never in its arguments (scripts/lib/start-secrets.ts). wrangler dev runs
// without the machine-wide dev registry and without fetching a sample Request.cf (scripts/lib/start-output.ts
// quietWranglerEnv): it prints its bindings once, and no stack trace offline.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { browserEnv, ensureLocalBrowser } from './lib/browser-setup.ts';
import { driveCrons } from './lib/cron-driver.ts';
import { migrationsLine, quietWranglerEnv, scheduledWarningFilter } from './lib/start-output.ts';
import { startSecrets } from './lib/start-secrets.ts';

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

// The API token and the key that seals crawls' credentials (made once for this checkout, kept beside the local state:
// .wrangler is git-ignored) go to wrangler dev in a file of mode 0600 it reads with --env-file, never on its command
// line, where any local user would read them with `ps` (scripts/lib/start-secrets.ts).
const stateDir = persistTo ?? '.wrangler';
const secretsFile = resolve(stateDir, 'start.env');
const secrets = startSecrets({
  args,
  env: process.env,
  readFile: (path) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined),
  localKey: () => localCredentialsKey(stateDir),
  secretsFile,
});
const extra: string[] = [...secrets.args];
if (secrets.file !== null) writeSecrets(secretsFile, secrets.file);
if (secrets.token === 'default')
  console.log('edgecrawl: local API token is "dev-token" (Authorization: Bearer dev-token)');
if (secrets.token === 'environment') console.log('edgecrawl: the API token is API_TOKEN from the environment');

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
  // wrangler reads the secrets file whatever the environment says of .env files (start-secrets.ts left those out).
  env: {
    ...quietWranglerEnv(process.env),
    ...browserEnv(),
    ...(secrets.file === null ? {} : { CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: 'true' }),
  },
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

/** Writes the secrets file readable by its owner alone (mode 0600, also when it was there before). */
function writeSecrets(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The local sealing key of crawls' credentials: made once (32 random bytes), kept in `dir`/credentials.key. */
function localCredentialsKey(dir: string): string {
  const file = join(dir, 'credentials.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
