import { z } from 'zod';
import { actionsSchema } from '../render/actions';
import type { Action } from '../render/rules';
import { type Cookie, type CredentialRequest, hasCredentials } from './fields';

/**
 * A crawl's credentials as they are kept: what can be shown (the hosts, the headers' and cookies' names, whether basic
 * credentials and a login were given, the login's page and the kinds of its steps) and the secrets, sealed
 * (domain/credentials/seal.ts). The one place that decides which request gets which credential.
 */

const shownCookieSchema = z.object({
  name: z.string(),
  domain: z.string().nullable(),
  path: z.string(),
  secure: z.boolean(),
});

/** A login's step as shown: its kind and selector, never what it types. */
const shownActionSchema = z.object({ type: z.string(), selector: z.string().optional() });

/** What a crawl shows of its credentials (GET /v1/crawls/:id, lists, schedules): names, never values. */
export const shownCredentialsSchema = z
  .object({
    hosts: z.array(z.string()).describe('The hosts they are sent to, and no other.'),
    headers: z.array(z.string()).describe('The names of the request headers sent.'),
    cookies: z.array(shownCookieSchema).describe('The cookies sent, without their values.'),
    authenticate: z.boolean().describe('HTTP basic credentials are sent.'),
    login: z
      .object({ url: z.string(), actions: z.array(shownActionSchema) })
      .nullable()
      .describe('The form login done when the crawl starts: its page and the kinds of its steps.'),
  })
  .meta({ id: 'Credentials' });

/** As stored in a crawl's or a schedule's config: the shown part, and the secrets sealed. */
export const storedCredentialsSchema = shownCredentialsSchema.extend({ sealed: z.string().min(1) });

export type ShownCredentials = z.output<typeof shownCredentialsSchema>;
export type StoredCredentials = z.output<typeof storedCredentialsSchema>;

const cookieSecretSchema = z.object({
  name: z.string(),
  value: z.string(),
  domain: z.string().optional(),
  path: z.string(),
  secure: z.boolean(),
});

/** The secrets themselves: what is sealed, and checked again when it is opened. */
export const secretsSchema = z.object({
  headers: z.record(z.string(), z.string()),
  cookies: z.array(cookieSecretSchema),
  authenticate: z.object({ username: z.string(), password: z.string() }).nullable(),
  login: actionsSchema.nullable(),
});

export type Secrets = z.output<typeof secretsSchema>;

/** What a request is sent with: the hosts that may have it, and the secrets (opened). */
export interface Access {
  hosts: readonly string[];
  headers: Readonly<Record<string, string>>;
  cookies: readonly Cookie[];
  authenticate: { username: string; password: string } | null;
  /** The login page of a crawl that logs in: a redirect to it means the session is over. */
  loginUrl?: string | null;
}

/** The hosts of the seeds: where credentials go when a request names none. */
export const seedHosts = (seeds: readonly string[]): string[] => [...new Set(seeds.map((s) => new URL(s).hostname))];

/** A request's credentials split into what is shown and what is sealed; null when it gives none. */
export function splitCredentials(
  request: CredentialRequest,
  seeds: readonly string[],
): { shown: ShownCredentials; secrets: Secrets } | null {
  if (!hasCredentials(request)) return null;
  const cookies = request.cookies ?? [];
  const { login } = request;
  const shown: ShownCredentials = {
    hosts: request.credentialsFor ?? seedHosts(seeds),
    headers: Object.keys(request.headers ?? {}),
    cookies: cookies.map(({ name, domain, path, secure }) => ({ name, domain: domain ?? null, path, secure })),
    authenticate: request.authenticate !== undefined,
    login: login ? { url: login.url, actions: login.actions.map(shownAction) } : null,
  };
  const secrets: Secrets = {
    headers: request.headers ?? {},
    cookies,
    authenticate: request.authenticate ?? null,
    login: login?.actions ?? null,
  };
  return { shown, secrets };
}

const shownAction = (action: Action) =>
  'selector' in action && action.selector !== undefined
    ? { type: action.type, selector: action.selector }
    : { type: action.type };

/** Whether `hostname` is one of `hosts` (a name, or `*.domain`: the domain and its subdomains). */
export function hostAllowed(hosts: readonly string[], hostname: string): boolean {
  const host = hostname.toLowerCase();
  return hosts.some((rule) =>
    rule.startsWith('*.') ? host === rule.slice(2) || host.endsWith(rule.slice(1)) : host === rule,
  );
}

/** RFC 6265's path match: the cookie's path is the request's, or a folder of it. */
export function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** The cookies a request to `url` carries: none off the credential hosts; by domain, path and `secure` on them. */
export function cookiesFor(url: URL, access: Access): Cookie[] {
  if (!hostAllowed(access.hosts, url.hostname)) return [];
  const host = url.hostname.toLowerCase();
  return access.cookies.filter(
    (cookie) =>
      (cookie.domain === undefined || host === cookie.domain || host.endsWith(`.${cookie.domain}`)) &&
      pathMatches(url.pathname, cookie.path) &&
      (!cookie.secure || url.protocol === 'https:'),
  );
}

/**
 * The headers a request to `url` carries for the crawl's credentials (lower-case names): its own headers, its basic
 * credentials and its cookies, on the credential hosts only; nothing anywhere else.
 */
export function credentialHeaders(url: string, access: Access | null): Record<string, string> {
  if (access === null) return {};
  const parsed = new URL(url);
  if (!hostAllowed(access.hosts, parsed.hostname)) return {};
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(access.headers)) out[name.toLowerCase()] = value;
  if (access.authenticate) out.authorization = basicAuthorization(access.authenticate);
  const cookies = cookiesFor(parsed, access);
  if (cookies.length > 0) out.cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return out;
}

/** The Authorization value of HTTP basic credentials (UTF-8, as RFC 7617's charset). */
function basicAuthorization({ username, password }: { username: string; password: string }): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** What a stored request or response shows in place of a secret. */
export const REDACTED = '[redacted]';

/** Headers as recorded: the value of each named in `secret` (lower case) replaced by REDACTED. */
export const redactHeaders = (
  headers: readonly (readonly [string, string])[],
  secret: ReadonlySet<string>,
): [string, string][] => headers.map(([name, value]) => [name, secret.has(name.toLowerCase()) ? REDACTED : value]);
