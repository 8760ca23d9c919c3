import { refusedHeader } from '../credentials/fields';

/**
 * Firecrawl's `headers` (of a scrape, a batch scrape, a crawl's scrapeOptions) as edgecrawl's credentials
 * (domain/credentials/fields.ts): a `Cookie` header becomes `cookies`, the headers edgecrawl sets itself (User-Agent,
 * Accept-Encoding…, which Firecrawl's clients often send) are left out and named in the warning, the rest are sent as
 * `headers`. No credential host is named: they go to the start URL's host (a batch's: its URLs' hosts), as edgecrawl's
 * own requests do by default. Values are never put in a warning.
 */

/** The credential fields of edgecrawl's request that Firecrawl's headers give (a key only when it has something). */
export interface HeaderCredentials {
  headers?: Record<string, string>;
  cookies?: { name: string; value: string }[];
}

/** The pairs of a Cookie header ("a=b; c=d"), and whether a part was not one (no "=", or no name). */
export function parseCookieHeader(value: string): { cookies: { name: string; value: string }[]; malformed: boolean } {
  const cookies: { name: string; value: string }[] = [];
  let malformed = false;
  for (const part of value.split(';')) {
    const pair = part.trim();
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = at < 0 ? '' : pair.slice(0, at).trim();
    if (name === '') malformed = true;
    else cookies.push({ name, value: pair.slice(at + 1).trim() });
  }
  return { cookies, malformed };
}

/** Firecrawl's request headers as edgecrawl's credentials, with a warning for what is not sent. */
export function credentialsOfHeaders(given: Readonly<Record<string, string>> | undefined): {
  credentials: HeaderCredentials;
  warnings: string[];
} {
  const headers: Record<string, string> = {};
  const cookies: { name: string; value: string }[] = [];
  const dropped: string[] = [];
  let malformed = false;
  for (const [name, value] of Object.entries(given ?? {})) {
    if (name.toLowerCase() === 'cookie') {
      const parsed = parseCookieHeader(value);
      cookies.push(...parsed.cookies);
      malformed ||= parsed.malformed;
    } else if (refusedHeader(name) !== null) dropped.push(name);
    else headers[name] = value;
  }
  const warnings: string[] = [];
  if (dropped.length > 0) warnings.push(`headers edgecrawl sets itself, not sent: ${dropped.join(', ')}`);
  if (malformed) warnings.push('Cookie header: parts that are not name=value were not sent');
  const credentials: HeaderCredentials = {
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(cookies.length > 0 ? { cookies } : {}),
  };
  return { credentials, warnings };
}

/** Whether Firecrawl's headers gave edgecrawl anything to send. */
export const givesCredentials = (credentials: HeaderCredentials): boolean =>
  credentials.headers !== undefined || credentials.cookies !== undefined;
