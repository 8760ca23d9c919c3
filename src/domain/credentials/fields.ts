import { z } from 'zod';
import { actionsSchema } from '../render/actions';
import { normalizeUrl } from '../url/normalize';

/**
 * What a crawl, a schedule or a scrape is let in with (docs/credentials.md): request headers, cookies, HTTP basic
 * credentials and a form login, as Cloudflare's /crawl names them, and the hosts they are sent to. Secrets: taken
 * here, sealed before anything is stored (domain/credentials/seal.ts), never shown again.
 */

const MAX_HEADERS = 32;
const MAX_COOKIES = 50;
const MAX_HOSTS = 100;

/** An HTTP token (RFC 9110): what a header's name is made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** No line break or NUL in a value: what would split one header into two. */
const SAFE_VALUE = /^[^\r\n\0]*$/;

/**
 * Headers a request may not set, and why: hop-by-hop ones, the ones the fetcher owns (the request's framing, its
 * encoding, conditional requests of recrawls, the crawler's identity, which robots.txt rules are matched to) and the
 * cookie header (`cookies` says which host each goes to).
 */
const REFUSED_HEADERS: Record<string, string> = {
  host: 'the fetcher sets it from the URL',
  'content-length': 'the fetcher frames the request',
  'transfer-encoding': 'the fetcher frames the request',
  connection: 'a hop-by-hop header',
  'keep-alive': 'a hop-by-hop header',
  te: 'a hop-by-hop header',
  trailer: 'a hop-by-hop header',
  upgrade: 'a hop-by-hop header',
  expect: 'a hop-by-hop header',
  'proxy-authorization': 'a hop-by-hop header',
  'proxy-connection': 'a hop-by-hop header',
  'accept-encoding': 'the fetcher decodes bodies itself',
  range: 'a page is fetched whole',
  'if-none-match': 'recrawls make their requests conditional themselves',
  'if-modified-since': 'recrawls make their requests conditional themselves',
  'if-match': 'conditional requests are the fetcher’s',
  'if-unmodified-since': 'conditional requests are the fetcher’s',
  'if-range': 'conditional requests are the fetcher’s',
  'user-agent': "the crawler's identity is the deployment's USER_AGENT (robots.txt rules are matched to it)",
  cookie: 'give cookies in `cookies`, which says which host each is sent to',
};

/** Why a header name may not be set, or null when it may. */
export function refusedHeader(name: string): string | null {
  const lower = name.toLowerCase();
  if (lower.startsWith('cf-')) return "Cloudflare's own headers are set by Cloudflare";
  return REFUSED_HEADERS[lower] ?? null;
}

const headerNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(TOKEN, "a header name is an HTTP token (letters, digits and !#$%&'*+.^_`|~-)");

const headersSchema = z
  .record(headerNameSchema, z.string().max(8192).regex(SAFE_VALUE, 'a header value holds no line break'))
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MAX_HEADERS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_HEADERS} headers` });
    const seen = new Set<string>();
    for (const name of names) {
      const why = refusedHeader(name);
      if (why !== null) ctx.addIssue({ code: 'custom', path: [name], message: `${name} cannot be set: ${why}` });
      if (seen.has(name.toLowerCase())) ctx.addIssue({ code: 'custom', path: [name], message: 'named twice' });
      seen.add(name.toLowerCase());
    }
  });

/** A host name as cookies and credentialsFor give it: lower case, without a leading dot. */
const hostNameSchema = z
  .string()
  .min(1)
  .max(253)
  .transform((value) => value.trim().toLowerCase().replace(/^\./, ''))
  .refine((host) => /^[a-z0-9.[\]:-]+$/.test(host) && !host.includes('..'), 'not a host name');

const cookieSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(256)
      .regex(/^[^\s;,=\0]+$/, 'a cookie name holds no space, ";", "," or "="'),
    value: z
      .string()
      .max(8192)
      .regex(/^[^\s;,\0]*$/, 'a cookie value holds no space, ";" or ","'),
    domain: hostNameSchema
      .optional()
      .describe('Sent to this host and its subdomains (among the credential hosts); none: to every credential host.'),
    path: z
      .string()
      .max(1024)
      .regex(/^\//, 'a cookie path starts with /')
      .default('/')
      .describe('Sent to URLs under this path.'),
    secure: z.boolean().default(false).describe('Sent over https only.'),
    // Given by browsers' cookie exports and puppeteer's CookieParam; a crawl's cookies last as long as the crawl.
    httpOnly: z.boolean().optional(),
    sameSite: z.enum(['Strict', 'Lax', 'None', 'strict', 'lax', 'none']).optional(),
    expires: z.number().optional(),
  })
  .strict()
  .transform(({ httpOnly: _h, sameSite: _s, expires: _e, ...cookie }) => cookie);

export type Cookie = z.output<typeof cookieSchema>;

const authenticateSchema = z
  .object({
    username: z
      .string()
      .max(1000)
      .regex(/^[^:\r\n\0]*$/, 'a basic username holds no ":" or line break'),
    password: z
      .string()
      .max(1000)
      .regex(/^[^\r\n\0]*$/, 'a password holds no line break'),
  })
  .strict();

/** A host the credentials are sent to: a host name, or `*.example.com` for its subdomains (and itself). */
const credentialHostSchema = z
  .string()
  .max(260)
  .transform((value, ctx) => {
    const wildcard = value.startsWith('*.');
    const host = hostNameSchema.safeParse(wildcard ? value.slice(2) : value);
    if (!host.success) {
      ctx.addIssue({ code: 'custom', message: `not a host name or *.domain: ${JSON.stringify(value.slice(0, 100))}` });
      return z.NEVER;
    }
    return wildcard ? `*.${host.data}` : host.data;
  });

const loginUrlSchema = z
  .string()
  .max(8192)
  .transform((value, ctx) => {
    const url = normalizeUrl(value);
    if (url === null) {
      ctx.addIssue({ code: 'custom', message: 'not an absolute http(s) URL' });
      return z.NEVER;
    }
    return url;
  });

const loginSchema = z
  .object({
    url: loginUrlSchema.describe('The login page.'),
    actions: actionsSchema
      .min(1)
      .describe('What is done on it, in order (type the user name and password, click submit, wait).'),
  })
  .strict();

type Login = z.output<typeof loginSchema>;

/** The request fields that let a crawl or a scrape in; every one is optional. */
export const credentialFields = {
  headers: headersSchema
    .optional()
    .describe(
      `Request headers sent with every request to the credential hosts (at most ${MAX_HEADERS}), e.g. Authorization: secrets, never shown back (only their names).`,
    ),
  cookies: z
    .array(cookieSchema)
    .max(MAX_COOKIES)
    .optional()
    .describe(`Cookies sent to the credential hosts (at most ${MAX_COOKIES}): values never shown back.`),
  authenticate: authenticateSchema
    .optional()
    .describe('HTTP basic credentials sent to the credential hosts: never shown back.'),
  credentialsFor: z
    .array(credentialHostSchema)
    .min(1)
    .max(MAX_HOSTS)
    .optional()
    .describe(
      "The hosts headers, cookies and credentials are sent to (example.com, or *.example.com for its subdomains too); none: the seeds' hosts. No other host ever gets them, not by a link nor by a redirect.",
    ),
};

/** A crawl's (and a schedule's) fields: the scrape's, and a form login done once when the crawl starts. */
export const crawlCredentialFields = {
  ...credentialFields,
  login: loginSchema
    .optional()
    .describe(
      "A form login done once in a browser when the crawl starts; the cookies it ends with are the crawl's. A login still on the login page afterwards ends the crawl, saying so.",
    ),
};

/** What a request gave of them, as its fields were parsed. */
export interface CredentialRequest {
  headers?: Record<string, string> | undefined;
  cookies?: Cookie[] | undefined;
  authenticate?: { username: string; password: string } | undefined;
  credentialsFor?: string[] | undefined;
  login?: Login | undefined;
}

/** The credential fields a request gives (not empty), in the order of the request's fields. */
export function givenCredentials(request: CredentialRequest): ('headers' | 'cookies' | 'authenticate' | 'login')[] {
  const given = {
    headers: Object.keys(request.headers ?? {}).length > 0,
    cookies: (request.cookies?.length ?? 0) > 0,
    authenticate: request.authenticate !== undefined,
    login: request.login !== undefined,
  };
  return (['headers', 'cookies', 'authenticate', 'login'] as const).filter((field) => given[field]);
}

/** Whether a request gives any credential. */
export const hasCredentials = (request: CredentialRequest): boolean => givenCredentials(request).length > 0;
