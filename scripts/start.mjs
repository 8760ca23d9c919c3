#!/usr/bin/env node
// `npm start [-- wrangler dev args]`: applies the D1 migrations to the local database, then runs
// `wrangler dev` (local Queues, Durable Objects, R2 and D1, persisted under .wrangler/state).
// Without a token from --var, .dev.vars or the API_TOKEN environment variable, the local API
// token is "dev-token".
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const wrangler = process.platform === 'win32' ? 'wrangler.cmd' : 'wrangler';

// --persist-to must reach both commands so they share the same local state.
const persistAt = args.findIndex((a) => a === '--persist-to' || a.startsWith('--persist-to='));
const persist =
  persistAt < 0 ? [] : args[persistAt].includes('=') ? [args[persistAt]] : [args[persistAt], args[persistAt + 1]];

const migrate = spawnSync(wrangler, ['d1', 'migrations', 'apply', 'DB', '--local', ...persist], { stdio: 'inherit' });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const hasToken =
  args.some((a, i) => (a === '--var' && args[i + 1]?.startsWith('API_TOKEN:')) || a.startsWith('--var=API_TOKEN:')) ||
  (existsSync('.dev.vars') && /^\s*API_TOKEN\s*=/m.test(readFileSync('.dev.vars', 'utf8')));
const extra = [];
if (!hasToken) {
  const token = process.env.API_TOKEN || 'dev-token';
  extra.push('--var', `API_TOKEN:${token}`);
  console.log(`edgecrawl: local API token is "${token}" (Authorization: Bearer ${token})`);
}

const dev = spawn(wrangler, ['dev', ...extra, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => dev.kill(signal));
dev.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
