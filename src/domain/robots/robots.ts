/**
 * robots.txt per RFC 9309, following Google's reference parser and matcher (google/robotstxt):
 *
 * - Lines end in LF, CR or CRLF; a UTF-8 BOM is skipped; `#` starts a comment; a line is cut after
 *   8 x 2083 - 1 characters. `key: value`, and, as Google accepts, `key value` without the
 *   colon when the line has exactly two words. Keys are case-insensitive prefixes, with the usual typos
 *   ("useragent", "user agent", "dissallow", "disalow", "site-map", ...).
 * - A group is one or more user-agent lines followed by rules; any other line ends the run of
 *   user-agent lines, so the next user-agent line starts a new group. Rules before any user-agent line
 *   are ignored. Groups naming the same agent are merged.
 * - An agent in robots.txt is its product token: the leading [A-Za-z_-] characters, compared
 *   case-insensitively. "*" (alone, or followed by white space) is the global group, used only when no
 *   group names the crawler's token. A matching group without rules allows everything.
 * - The longest matching pattern (in octets) wins; allow wins a tie; an empty pattern matches nothing.
 *   `*` matches any run of characters, `$` at the end anchors. Patterns and URLs are compared on
 *   path + query after percent-encoding normalization (non-ASCII encoded as UTF-8, escapes upper-cased,
 *   escapes of unreserved characters decoded: RFC 9309 section 2.2.2). An allowed `.../index.html` also
 *   allows `.../` (Google). `/robots.txt` is always allowed.
 * - Only the first 500 KiB are parsed (the minimum RFC 9309 requires).
 * - Beyond the RFC: `Crawl-delay` (seconds, per group) and `Sitemap` lines (anywhere).
 */
import { normalizePercentEncoding } from '../url/normalize';

export const ROBOTS_PARSE_LIMIT_BYTES = 500 * 1024;
/** Google keeps 8 x 2083 - 1 characters of a line (its buffer holds a terminating NUL). */
const MAX_LINE_LENGTH = 2083 * 8 - 1;

export interface Robots {
  isAllowed(url: string, userAgent: string): boolean;
  /** Seconds, from the group that applies to `userAgent`, if it sets one. */
  crawlDelay(userAgent: string): number | undefined;
  sitemaps: string[];
}

interface Rule {
  allow: boolean;
  pattern: string;
}

interface Group {
  /** Lower-cased product tokens; "*" for the global group. */
  agents: string[];
  rules: Rule[];
  crawlDelay?: number;
}

type Key = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'crawl-delay' | 'unknown';

function keyOf(raw: string): Key {
  const key = raw.toLowerCase();
  const starts = (...prefixes: string[]) => prefixes.some((p) => key.startsWith(p));
  if (starts('user-agent', 'useragent', 'user agent')) return 'user-agent';
  if (starts('allow')) return 'allow';
  if (starts('disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw')) return 'disallow';
  if (starts('sitemap', 'site-map')) return 'sitemap';
  if (starts('crawl-delay', 'crawldelay', 'crawl delay')) return 'crawl-delay';
  return 'unknown';
}

/** The product token of a user agent: its leading [A-Za-z_-] characters ("edgecrawl/1.0 (...)" -> "edgecrawl"). */
export function productToken(userAgent: string): string {
  return /^[A-Za-z_-]*/.exec(userAgent)?.[0] ?? '';
}

/** Splits a line into key and value, or null when it is not a directive. */
function splitLine(raw: string): [string, string] | null {
  const hash = raw.indexOf('#');
  const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
  let sep = line.indexOf(':');
  let valueStart = sep + 1;
  if (sep < 0) {
    // Google accepts white space for the missing colon, if the line is exactly two words.
    const m = /^(\S+)[ \t]+(\S+)$/.exec(line);
    if (!m) return null;
    sep = (m[1] as string).length;
    valueStart = sep;
  }
  const key = line.slice(0, sep).trim();
  return key.length > 0 ? [key, line.slice(valueStart).trim()] : null;
}

/** Percent-encoding normalization of a pattern; `*` and `$` are kept as they are. */
export function normalizePattern(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0) as number;
    if (code < 0x80) out += ch;
    else for (const byte of new TextEncoder().encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return normalizePercentEncoding(out);
}

/**
 * Does `pattern` match `path` from its start? `*` is any run, `$` at the very end anchors.
 * The set of reachable positions keeps the worst case at O(path x pattern).
 */
export function matches(path: string, pattern: string): boolean {
  let positions = [0];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '$' && i === pattern.length - 1) return positions[positions.length - 1] === path.length;
    if (ch === '*') {
      const from = positions[0] as number;
      positions = [];
      for (let p = from; p <= path.length; p++) positions.push(p);
    } else {
      const next: number[] = [];
      for (const p of positions) if (p < path.length && path[p] === ch) next.push(p + 1);
      if (next.length === 0) return false;
      positions = next;
    }
  }
  return true;
}

/** path + query of a URL, percent-encoding normalized; a string starting with "/" is taken as a path. */
function pathOf(url: string): string {
  if (url.startsWith('/')) return normalizePattern(url.split('#')[0] as string);
  try {
    const u = new URL(url);
    return normalizePercentEncoding(u.pathname + u.search) || '/';
  } catch {
    return '/';
  }
}

function truncateUtf8(body: string, limit: number): string {
  const bytes = new TextEncoder().encode(body);
  return bytes.byteLength <= limit ? body : new TextDecoder().decode(bytes.subarray(0, limit));
}

/** Adds a rule line (allow or disallow) to a group. */
function addRule(group: Group, allow: boolean, value: string): void {
  const pattern = normalizePattern(value);
  group.rules.push({ allow, pattern });
  const slash = pattern.lastIndexOf('/');
  // Google's matcher: allowing /index.htm(l) also allows the directory itself.
  if (allow && slash >= 0 && pattern.slice(slash).startsWith('/index.htm'))
    group.rules.push({ allow: true, pattern: `${pattern.slice(0, slash + 1)}$` });
}

/** The groups and Sitemap lines of a robots.txt body. Consecutive user-agent lines open one group. */
function parseGroups(text: string): { groups: Group[]; sitemaps: string[] } {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | null = null;
  let inAgentRun = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const kv = splitLine(rawLine.length > MAX_LINE_LENGTH ? rawLine.slice(0, MAX_LINE_LENGTH) : rawLine);
    if (!kv) continue;
    const [rawKey, value] = kv;
    const key = keyOf(rawKey);
    if (key === 'user-agent') {
      if (!inAgentRun || current === null) {
        current = { agents: [], rules: [] };
        groups.push(current);
        inAgentRun = true;
      }
      const agent =
        value.startsWith('*') && (value.length === 1 || /\s/.test(value[1] as string))
          ? '*'
          : productToken(value).toLowerCase();
      if (agent) current.agents.push(agent);
      continue;
    }
    inAgentRun = false;
    if (key === 'sitemap') {
      if (value) sitemaps.push(value);
    } else if ((key === 'allow' || key === 'disallow') && current) {
      addRule(current, key === 'allow', value);
    } else if (key === 'crawl-delay' && current && current.crawlDelay === undefined) {
      const seconds = Number(value);
      if (value !== '' && Number.isFinite(seconds) && seconds >= 0) current.crawlDelay = seconds;
    }
  }
  return { groups, sitemaps };
}

export function parseRobots(body: string): Robots {
  const { groups, sitemaps } = parseGroups(truncateUtf8(body, ROBOTS_PARSE_LIMIT_BYTES).replace(/^\uFEFF/, ''));
  const groupsFor = (userAgent: string): Group[] => {
    const token = productToken(userAgent.trim()).toLowerCase();
    const specific = token ? groups.filter((g) => g.agents.includes(token)) : [];
    return specific.length > 0 ? specific : groups.filter((g) => g.agents.includes('*'));
  };
  return {
    sitemaps,
    isAllowed(url, userAgent) {
      const path = pathOf(url);
      if (path === '/robots.txt') return true;
      let allow = 0;
      let disallow = 0;
      for (const group of groupsFor(userAgent)) {
        for (const rule of group.rules) {
          if (rule.pattern.length === 0 || !matches(path, rule.pattern)) continue;
          if (rule.allow) allow = Math.max(allow, rule.pattern.length);
          else disallow = Math.max(disallow, rule.pattern.length);
        }
      }
      return disallow <= allow;
    },
    crawlDelay(userAgent) {
      for (const group of groupsFor(userAgent)) if (group.crawlDelay !== undefined) return group.crawlDelay;
      return undefined;
    },
  };
}

/** robots.txt that allows everything (4xx), or disallows everything (unreachable). */
export const ALLOW_ALL: Robots = { isAllowed: () => true, crawlDelay: () => undefined, sitemaps: [] };
export const DISALLOW_ALL: Robots = {
  isAllowed: (url) => pathOf(url) === '/robots.txt',
  crawlDelay: () => undefined,
  sitemaps: [],
};
