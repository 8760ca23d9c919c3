/**
 * The flags of `crawl` and `scrape` that let them in behind a login (docs/credentials.md): request headers, cookies,
 * HTTP basic credentials and the hosts they go to, read into the request's `headers`, `cookies`, `authenticate` and
 * `credentialsFor`. A value may come from a file (`@FILE`), out of the shell's history and of `ps`. No message here
 * ever holds a value: a secret given wrong is named by its flag, never shown.
 */
import { readFileSync } from 'node:fs';
import { CliError, UsageError } from './errors.ts';

/** Flags both commands take. */
export const CREDENTIAL_OPTIONS = {
  header: { type: 'string', short: 'H', multiple: true },
  cookie: { type: 'string', short: 'b', multiple: true },
  user: { type: 'string', short: 'u' },
  'credentials-for': { type: 'string', multiple: true },
} as const;

/** Their lines in a command's usage. */
export const CREDENTIAL_USAGE = `  -H, --header H       a request header "Name: value" sent to the site (repeatable; @FILE: one a line)
  -b, --cookie C       a cookie "name=value" (or "a=1; b=2") sent to the site (repeatable; @FILE: such lines,
                       or a browser's cookies.txt export)
  -u, --user U:P       HTTP basic credentials user:password (@FILE: a file holding user:password)
  --credentials-for H  a host they are sent to, or *.example.com for its subdomains too (repeatable);
                       default: the hosts of the URLs given. No other host ever gets them; their values are
                       never shown back (a crawl shows their names only)`;

interface CredentialValues {
  header?: string[] | undefined;
  cookie?: string[] | undefined;
  user?: string | undefined;
  'credentials-for'?: string[] | undefined;
}

interface Cookie {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  secure?: boolean;
}

/** The request fields the flags give: only those given. */
export interface CredentialFields {
  headers?: Record<string, string>;
  cookies?: Cookie[];
  authenticate?: { username: string; password: string };
  credentialsFor?: string[];
}

/** The text of a flag's value: itself, or the file `@FILE` names. */
function textOf(value: string, flag: string): string {
  if (!value.startsWith('@')) return value;
  try {
    return readFileSync(value.slice(1), 'utf8');
  } catch (error) {
    throw new CliError(`${flag} ${value}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The lines of a value read from a file (a value given inline is one line), blank ones and # comments left out (not
 * cookies.txt's #HttpOnly_ lines, which are cookies).
 */
function linesOf(value: string, flag: string): string[] {
  const text = textOf(value, flag);
  if (!value.startsWith('@')) return [text];
  const comment = (line: string) => line.startsWith('#') && !line.startsWith('#HttpOnly_');
  return text.split(/\r?\n/).filter((line) => line.trim() !== '' && !comment(line.trim()));
}

/** The name=value pairs of a Cookie-style line ("a=1; b=2"). */
function cookiePairs(line: string, flag: string, usage: string): Cookie[] {
  return line
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at < 0 ? '' : pair.slice(0, at).trim();
      if (name === '') throw new UsageError(`${flag} takes name=value (a part given has no name=)`, usage);
      return { name, value: pair.slice(at + 1).trim() };
    });
}

/** A line of a cookies.txt export (Netscape's format: domain, subdomains, path, secure, expiry, name, value). */
function netscapeCookie(line: string): Cookie | null {
  const fields = line.replace(/^#HttpOnly_/, '').split('\t');
  if (fields.length !== 7) return null;
  const [domain, , path, secure, , name, value] = fields as [string, string, string, string, string, string, string];
  return { name, value: value.trim(), domain: domain.replace(/^\./, ''), path, secure: secure === 'TRUE' };
}

function readCookies(values: readonly string[], usage: string): Cookie[] {
  return values.flatMap((value) =>
    linesOf(value, '--cookie').flatMap((line) => {
      const exported = netscapeCookie(line);
      return exported ? [exported] : cookiePairs(line, '--cookie', usage);
    }),
  );
}

/** `--header` values as headers; a Cookie header's pairs are cookies (the API takes cookies apart). */
function readHeaders(values: readonly string[], usage: string): { headers: Record<string, string>; cookies: Cookie[] } {
  const headers: Record<string, string> = {};
  const cookies: Cookie[] = [];
  for (const line of values.flatMap((value) => linesOf(value, '--header'))) {
    const at = line.indexOf(':');
    const name = at < 0 ? '' : line.slice(0, at).trim();
    if (name === '') throw new UsageError('--header takes "Name: value" (a header given has no "Name:")', usage);
    const value = line.slice(at + 1).trim();
    if (name.toLowerCase() === 'cookie') cookies.push(...cookiePairs(value, '--header Cookie', usage));
    else if (Object.keys(headers).some((n) => n.toLowerCase() === name.toLowerCase()))
      throw new UsageError(`--header ${name} is given twice`, usage);
    else headers[name] = value;
  }
  return { headers, cookies };
}

function readUser(value: string, usage: string): { username: string; password: string } {
  const text = textOf(value, '--user').replace(/\r?\n$/, '');
  const at = text.indexOf(':');
  if (at < 0) throw new UsageError('--user takes user:password (the one given has no ":")', usage);
  return { username: text.slice(0, at), password: text.slice(at + 1) };
}

/** The flags read into the request's credential fields (none given: {}); the API checks them. */
export function readCredentialFlags(values: CredentialValues, usage: string): CredentialFields {
  const { headers, cookies } = readHeaders(values.header ?? [], usage);
  cookies.push(...readCookies(values.cookie ?? [], usage));
  const user = values.user === undefined ? undefined : readUser(values.user, usage);
  const hosts = values['credentials-for'];
  return {
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(cookies.length > 0 ? { cookies } : {}),
    ...(user ? { authenticate: user } : {}),
    ...(hosts && hosts.length > 0 ? { credentialsFor: hosts } : {}),
  };
}
