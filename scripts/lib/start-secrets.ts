// How `npm start` (scripts/start.ts) gives wrangler dev the secrets it adds (the API token, the key that seals crawls'
// credentials): in a dotenv file of mode 0600 that wrangler reads with --env-file, never on its command line, where any
// local user reads them with `ps`. Its arguments name the file, not what it holds.
import { dirname, resolve } from 'node:path';
import { parseEnv } from 'node:util';

/** The secrets npm start gives wrangler dev when the user gives none. */
const SECRETS = ['API_TOKEN', 'CREDENTIALS_KEY'] as const;
type Secret = (typeof SECRETS)[number];

/** What npm start reads to decide: wrangler dev's arguments as typed, its environment, the checkout's files. */
export interface StartInputs {
  args: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** A file's text, or undefined when there is none. */
  readFile: (path: string) => string | undefined;
  /** The checkout's own key for crawls' credentials (made once, kept beside the local state). */
  localKey: () => string;
  /** Where the secrets file goes (in the git-ignored local state), an absolute path: wrangler reads it from its config's folder. */
  secretsFile: string;
}

/** What npm start adds: wrangler dev's arguments (paths and names only), and the secrets file's text to write. */
export interface StartSecrets {
  args: string[];
  /** The dotenv text for `secretsFile` (to be written with mode 0600); null: the user gave every secret. */
  file: string | null;
  /** Where the API token comes from, to tell the user (its value is said only when it is the default). */
  token: 'given' | 'environment' | 'default';
}

/** The values of every `--name value` or `--name=value` argument. */
function optionValues(args: readonly string[], ...names: string[]): string[] {
  const values: string[] = [];
  for (const [i, a] of args.entries()) {
    for (const name of names) {
      const next = args[i + 1];
      if (a === name && next !== undefined) values.push(next);
      else if (a.startsWith(`${name}=`)) values.push(a.slice(name.length + 1));
    }
  }
  return values;
}

/**
 * The files of variables wrangler dev would read by itself: the user's --env-file ones; else `.dev.vars` (or
 * `.dev.vars.<env>`) beside the config, when there is one; else its .env files. Passing --env-file makes wrangler
 * read only the files named, so these are named too, before npm start's own.
 */
function wranglerVarFiles(inputs: StartInputs): { files: string[]; devVars: string | null; typed: boolean } {
  const given = optionValues(inputs.args, '--env-file');
  if (given.length > 0) return { files: given, devVars: null, typed: true };
  const dir = dirname(optionValues(inputs.args, '--config', '-c')[0] ?? 'wrangler.toml');
  const env = optionValues(inputs.args, '--env', '-e')[0];
  const devVars = [...(env ? [`.dev.vars.${env}`] : []), '.dev.vars']
    .map((name) => resolve(dir, name))
    .find((path) => inputs.readFile(path) !== undefined);
  if (devVars !== undefined) return { files: [], devVars, typed: false };
  // CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV=false: wrangler reads no .env file of the user's (npm start's is read).
  const dotEnv =
    inputs.env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV === 'false'
      ? []
      : ['.env', '.env.local', ...(env ? [`.env.${env}`, `.env.${env}.local`] : [])];
  const files = dotEnv.map((name) => resolve(dir, name)).filter((path) => inputs.readFile(path) !== undefined);
  return { files, devVars: null, typed: false };
}

/** The variables the user gives wrangler dev: `--var NAME:value` arguments and the files it reads. */
function givenNames(inputs: StartInputs, files: readonly string[], devVars: string | null): Set<string> {
  const names = optionValues(inputs.args, '--var').map((v) => v.slice(0, v.indexOf(':')));
  for (const path of [...files, ...(devVars ? [devVars] : [])])
    names.push(...Object.keys(parseEnv(inputs.readFile(path) ?? '')));
  return new Set(names);
}

/**
 * A dotenv line wrangler reads back as `value` exactly: quoted with a quote the value does not hold (dotenv unescapes
 * nothing inside single quotes or backticks), each `$` escaped (wrangler expands variables in --env-file values; `\$`
 * is a literal `$`). A line break can only be written `\n` inside double quotes; a value no line can hold is refused.
 */
export function dotenvLine(name: string, value: string): string {
  const escaped = value.replaceAll('$', '\\$');
  if (!/[\r\n]/.test(value)) {
    const quote = ["'", '`', '"'].find((q) => !value.includes(q));
    if (quote !== undefined) return `${name}=${quote}${escaped}${quote}`;
  } else if (!/"|\\[nr]/.test(value)) return `${name}="${escaped.replaceAll('\n', '\\n').replaceAll('\r', '\\r')}"`;
  throw new Error(`${name}: a value npm start cannot pass to wrangler dev in a file; give it with --var instead`);
}

/**
 * The secrets npm start adds for wrangler dev, and how it is told of them. The API token: API_TOKEN from the
 * environment, else "dev-token"; the credentials key: CREDENTIALS_KEY from the environment, else the checkout's own.
 * Each only when the user gives none (--var, .dev.vars or an env file). The user's `.dev.vars`, which wrangler stops
 * reading once --env-file is given, is carried into the secrets file as it was parsed (escaped: wrangler does not
 * expand .dev.vars values).
 */
export function startSecrets(inputs: StartInputs): StartSecrets {
  const { files, devVars, typed } = wranglerVarFiles(inputs);
  const given = givenNames(inputs, files, devVars);
  const fromEnv = (name: Secret) => inputs.env[name] || undefined;
  const added: [Secret, string][] = [];
  if (!given.has('API_TOKEN')) added.push(['API_TOKEN', fromEnv('API_TOKEN') ?? 'dev-token']);
  if (!given.has('CREDENTIALS_KEY')) added.push(['CREDENTIALS_KEY', fromEnv('CREDENTIALS_KEY') ?? inputs.localKey()]);
  const token = given.has('API_TOKEN') ? 'given' : fromEnv('API_TOKEN') ? 'environment' : 'default';
  if (added.length === 0) return { args: [], file: null, token };
  const carried = Object.entries(devVars ? parseEnv(inputs.readFile(devVars) ?? '') : {}).flatMap(
    ([name, value]): [string, string][] => (value === undefined ? [] : [[name, value]]),
  );
  const lines = [...carried, ...added].map(([name, value]) => dotenvLine(name, value));
  const header = `# Written by npm start (scripts/start.ts) for wrangler dev --env-file; made again at each start.\n`;
  // The user's own --env-file arguments reach wrangler as typed; the files it would have read alone are named here.
  const args = [...(typed ? [] : files), inputs.secretsFile].flatMap((path) => ['--env-file', path]);
  return { args, file: `${header}${lines.join('\n')}\n`, token };
}
