/**
 * Options of Firecrawl's requests that edgecrawl does not have. Each is accepted; one set to anything but Firecrawl's
 * default is named in the answer's `warning`, so that nothing is silently different.
 */

/** Keys that say who calls (the SDKs' origin, the CLI's integration…), not what to do: dropped without a word. */
const CALLER_KEYS = new Set(['origin', 'integration', 'toolDetail', 'domainTools', 'useMock', 'agent_hints']);

/** Firecrawl's defaults of the options edgecrawl ignores: a request that gives one of these values changes nothing. */
const DEFAULTS: Record<string, readonly unknown[]> = {
  mobile: [false],
  proxy: ['auto', 'basic'],
  blockAds: [true],
  removeBase64Images: [true],
  skipTlsVerification: [true, false],
  storeInCache: [true],
  fastMode: [false],
  zeroDataRetention: [false],
  parsePDF: [true],
  ignoreRobotsTxt: [false],
  onlyCleanContent: [false],
  redactPII: [false],
  lockdown: [false],
  timeout: [],
  minAge: [],
};

const WHY: Record<string, string> = {
  ignoreRobotsTxt: 'edgecrawl always obeys robots.txt',
  location: 'pages are fetched from where the Worker runs',
  proxy: 'pages are fetched from Cloudflare, without proxies',
  zeroDataRetention: "pages are kept in your own R2 and D1 (the crawl's retentionDays decides for how long)",
};

/** The warning for options given that are ignored (null: none), the known ones the caller handled left out. */
export function ignoredWarning(body: Record<string, unknown>, handled: ReadonlySet<string>): string | null {
  const ignored = Object.entries(body).filter(([key, value]) => {
    if (handled.has(key) || CALLER_KEYS.has(key) || key.startsWith('__') || value === undefined || value === null)
      return false;
    const defaults = DEFAULTS[key];
    return !defaults?.some((d) => d === value);
  });
  if (ignored.length === 0) return null;
  const named = ignored.map(([key]) => (WHY[key] ? `${key} (${WHY[key]})` : key));
  return `ignored options edgecrawl does not have: ${named.join(', ')}`;
}

/** Warnings joined into Firecrawl's one `warning` string (undefined: none). */
export function joinWarnings(warnings: readonly (string | null)[]): string | undefined {
  const given = warnings.filter((w): w is string => w !== null && w !== '');
  return given.length === 0 ? undefined : given.join('; ');
}
