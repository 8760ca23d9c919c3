import { z } from 'zod';
import type { FrontierEntry } from '../../domain/crawl/url-life';
import { repeatedSegments, segmentsOf, tooDeep } from '../../domain/traps/paths';
import {
  describeGroup,
  originOf,
  PATTERN_WINDOW,
  type ParamEvidence,
  paramIgnored,
  paramMatters,
  paramsDiffering,
  paramsOf,
  pathGroup,
  patternTrapped,
  shapeGroup,
  withoutParams,
} from '../../domain/traps/patterns';
import { TRAP_RULES, type TrapHit, type TrapSettings } from '../../domain/traps/rules';
import { hostKey } from '../../domain/url/normalize';
import { pathOf } from '../../domain/url/patterns';
import type { Ledger } from './ledger';

/** Whether two template sketches are of the same page (domain/similarity): injected, so the rules stay testable. */
export type SameTemplate = (a: string, b: string) => boolean;

/** A page the crawl stored (or found a duplicate), as the trap rules learn from it. */
export interface ObservedPage {
  url: string;
  /** Its template sketch (domain/similarity), null when it has no text to compare. */
  sketch: string | null;
  /** It was decided a duplicate of another URL of the crawl. */
  duplicate: boolean;
}

/** What a rule says of a URL: the hit, and, for a parameter that never changes a page, the URL without it to offer. */
export interface TrapCheck {
  hit: TrapHit;
  fold?: string;
}

interface Member {
  url: string;
  params: Map<string, string>;
  sketch: string;
}

interface GroupWatch {
  recent: boolean[];
  members: Member[];
  trapped: boolean;
}

interface HostWatch {
  /** Segments of the deepest page of the host with content of its own; null until read (after a wake). */
  depth: number | null;
  params: Map<string, ParamEvidence>;
  ignored: Set<string>;
  /** URL prefixes (origin and path, ending in /) under which pages echo a shorter path's. */
  echoes: string[];
  /** The template sketch of recent pages by origin and path, to find echoes. */
  paths: Map<string, string>;
}

/** Groups and hosts watched at most (the oldest forgotten first; a trap declared is kept in its table). */
const MAX_GROUPS = 20_000;
const MAX_HOSTS = 50_000;
const MAX_PATHS_PER_HOST = 1_000;
/** URLs found on a page of their own pattern remembered at most (the oldest forgotten first). */
const MAX_MADE = 100_000;
const MADE_BY_PATH = 1;
const MADE_BY_SHAPE = 2;

const declarationSchema = z.object({ key: z.string(), rule: z.enum(TRAP_RULES), pattern: z.string() });
export type Declaration = z.output<typeof declarationSchema>;

/**
 * The trap rules of one crawl (domain/traps), with what they learn in memory: the groups of URL patterns and how their
 * pages compared, each host's parameters and echoes, how deep its pages of their own go. A trap once declared is one
 * row of `traps` (read back when the object wakes); the rest is relearned after a wake, at the cost of a few pages.
 */
export class TrapWatch {
  private readonly groups = new Map<string, GroupWatch>();
  private readonly hosts = new Map<string, HostWatch>();
  private readonly declared = new Map<string, Declaration>();
  /** URLs found on a page of their own pattern (MADE_BY_PATH, MADE_BY_SHAPE): a pattern making more of itself. */
  private readonly made = new Map<string, number>();
  private loaded = false;
  /** The most segments of a stored URL's path, by origin: read once per wake (see depths()), then kept up to date. */
  private storedDepths: Map<string, number> | null = null;

  /** `stored`: hands its argument each URL the crawl stored (SeenSet.eachStored). */
  constructor(
    private readonly ledger: Ledger,
    private readonly rules: TrapSettings,
    private readonly same: SameTemplate,
    private readonly stored: (row: (entry: FrontierEntry) => void) => void,
  ) {}

  /** What a rule says of a page URL found by the crawl (seeds are never asked: the user chose them). */
  check(url: string): TrapCheck | null {
    this.load();
    if (this.rules.repeatedSegments) {
      const hit = repeatedSegments(url);
      if (hit) return { hit };
    }
    const host = this.host(url);
    if (this.rules.deepPaths) {
      const hit = tooDeep(url, this.depthOf(url, host));
      if (hit) return { hit };
    }
    if (this.rules.pathEchoes) {
      const prefix = host.echoes.find((p) => url.startsWith(p));
      if (prefix) return { hit: { rule: 'pathEchoes', pattern: `${prefix}…: the same page as a shorter path's` } };
    }
    return this.rules.urlPatterns ? this.patternCheck(url, host) : null;
  }

  private patternCheck(url: string, host: HostWatch): TrapCheck | null {
    const params = paramsOf(url);
    const ignored = [...params.keys()].filter((name) => host.ignored.has(name));
    if (ignored.length > 0)
      return {
        hit: { rule: 'urlPatterns', pattern: `${originOf(url)}/…?${ignored.join('&')}=… never changes a page` },
        fold: withoutParams(url, new Set(ignored)),
      };
    const shape = shapeGroup(url);
    if (shape !== null && this.groups.get(shape)?.trapped)
      return { hit: { rule: 'urlPatterns', pattern: `${describeGroup(shape, true)}: near-identical pages` } };
    const path = this.groups.get(pathGroup(url));
    if (path?.trapped && params.size > 0 && ![...params.keys()].every((name) => paramMatters(host.params.get(name))))
      return {
        hit: { rule: 'urlPatterns', pattern: `${describeGroup(pathGroup(url), false)}: near-identical pages` },
      };
    return null;
  }

  /**
   * A URL accepted that was found on the page `from`: noted when both are of one pattern (the same path, or the same
   * shape), the evidence a trap needs besides repeats: a calendar's month links the next, a facet list more facets, a
   * page past the end the page after it. A catalog's pages, linked from a list that is not one of them, never count.
   */
  found(url: string, from: string): void {
    const bits =
      (pathGroup(url) === pathGroup(from) ? MADE_BY_PATH : 0) |
      (shapeGroup(url) !== null && shapeGroup(url) === shapeGroup(from) ? MADE_BY_SHAPE : 0);
    if (bits === 0) return;
    if (this.made.size >= MAX_MADE) this.made.delete(this.made.keys().next().value ?? '');
    this.made.set(url, bits);
  }

  /** Learns from pages stored (or found duplicates): returns the traps it declared now. */
  observe(pages: readonly ObservedPage[]): Declaration[] {
    this.load();
    const fresh: Declaration[] = [];
    for (const page of pages) {
      const host = this.host(page.url);
      const { sketch } = page;
      const repeated = sketch !== null && this.learn({ ...page, sketch }, host, fresh);
      if (!page.duplicate && !repeated) {
        host.depth = Math.max(this.depthOf(page.url, host), segmentsOf(page.url).length);
        const [origin, depths] = [originOf(page.url), this.storedDepths];
        if (depths) depths.set(origin, Math.max(depths.get(origin) ?? 0, segmentsOf(page.url).length));
      }
    }
    if (fresh.length > 0)
      this.ledger.exec(
        `INSERT INTO traps (key, rule, pattern) SELECT value->>0, value->>1, value->>2 FROM json_each(?) WHERE true
         ON CONFLICT (key) DO NOTHING`,
        JSON.stringify(fresh.map((d) => [d.key, d.rule, d.pattern])),
      );
    return fresh;
  }

  /** One page's lesson; true when it repeats a page before it (in a group of its pattern, or a shorter path's). */
  private learn(page: ObservedPage & { sketch: string }, host: HostWatch, fresh: Declaration[]): boolean {
    let repeated = false;
    const params = paramsOf(page.url);
    const made = this.made.get(page.url) ?? 0;
    for (const [key, byShape] of [
      [pathGroup(page.url), false],
      [shapeGroup(page.url), true],
    ] as const) {
      if (key === null) continue;
      const group = this.group(key);
      const member = { url: page.url, params, sketch: page.sketch };
      const counts = (made & (byShape ? MADE_BY_SHAPE : MADE_BY_PATH)) !== 0;
      const similar = this.compare(group, member, { host: byShape ? null : host, counts });
      if (!byShape) this.ignoreParams(host, page.url, fresh);
      repeated ||= similar;
      if (!group.trapped && patternTrapped(group.recent)) {
        group.trapped = true;
        if (this.rules.urlPatterns) this.declare(fresh, `pattern\t${key}`, 'urlPatterns', describeGroup(key, byShape));
      }
    }
    if (this.echo(page, host, fresh)) repeated = true;
    return repeated;
  }

  /**
   * Compares a page with its group's recent pages: its similarity recorded when it `counts` (a page of the pattern
   * found on a page of the same pattern: the pattern making more of itself), and, in a path's group (`host` given),
   * what the pages differing from it in one parameter alone say of that parameter. True when near-identical to one.
   */
  private compare(group: GroupWatch, member: Member, { host, counts }: { host: HostWatch | null; counts: boolean }) {
    let similar = false;
    for (const other of group.members) {
      if (other.url === member.url) continue;
      const same = this.same(other.sketch, member.sketch);
      similar ||= same;
      const differing = paramsDiffering(other.params, member.params);
      if (host === null || differing.length !== 1) continue;
      const name = differing[0] as string;
      const evidence = host.params.get(name) ?? { same: 0, differs: 0 };
      host.params.set(
        name,
        same ? { ...evidence, same: evidence.same + 1 } : { ...evidence, differs: evidence.differs + 1 },
      );
    }
    if (counts) group.recent = [...group.recent, similar].slice(-PATTERN_WINDOW);
    group.members = [...group.members.filter((m) => m.url !== member.url), member].slice(-PATTERN_WINDOW);
    return similar;
  }

  /** Parameters of the host that never changed a page become ignored (declared once each). */
  private ignoreParams(host: HostWatch, url: string, fresh: Declaration[]): void {
    if (!this.rules.urlPatterns) return;
    for (const [name, evidence] of host.params)
      if (!host.ignored.has(name) && paramIgnored(evidence)) {
        host.ignored.add(name);
        this.declare(fresh, `param\t${hostKey(url)}\t${name}`, 'urlPatterns', `${hostKey(url)} ?${name}=`);
      }
  }

  /**
   * A page that is a shorter path's page again (/docs/guide/guide/ reads as /docs/guide/): the URLs under it are
   * echoes, declared once. Records the page's own path for the pages after it. True when it echoes.
   */
  private echo(page: ObservedPage & { sketch: string }, host: HostWatch, fresh: Declaration[]): boolean {
    const origin = originOf(page.url);
    const path = pathOf(page.url);
    const segments = segmentsOf(page.url);
    let echoes = false;
    for (let k = segments.length - 1; k >= 1 && !echoes; k--) {
      const shorter = host.paths.get(`${origin}/${segments.slice(0, k).join('/')}/`);
      echoes = shorter !== undefined && this.same(shorter, page.sketch);
    }
    if (echoes && this.rules.pathEchoes) {
      const prefix = `${origin}${path.endsWith('/') ? path : `${path}/`}`;
      if (!host.echoes.includes(prefix)) {
        host.echoes.push(prefix);
        this.declare(fresh, `echo\t${prefix}`, 'pathEchoes', prefix);
      }
    }
    if (host.paths.size >= MAX_PATHS_PER_HOST) host.paths.delete(host.paths.keys().next().value ?? '');
    host.paths.set(`${origin}${path}`, page.sketch);
    return echoes;
  }

  private declare(fresh: Declaration[], key: string, rule: TrapHit['rule'], pattern: string): void {
    if (this.declared.has(key)) return;
    const declaration = { key, rule, pattern };
    this.declared.set(key, declaration);
    fresh.push(declaration);
  }

  /**
   * The key ranges of the seen-set where URLs the `declared` traps keep out may wait queued: the origin of a pattern,
   * every origin of a host whose parameter is ignored (http and https, with and without a port), the prefix of an echo.
   */
  rangesOf(declared: readonly Declaration[]): [string, string][] {
    const ranges = new Map<string, string>();
    const add = (prefix: string) => ranges.set(prefix, `${prefix}\u{10FFFF}`);
    for (const { key } of declared) {
      const [kind, a = '', b] = key.split('\t');
      if (kind === 'echo') add(a);
      else if (kind === 'pattern') add(`${originOf(a)}/`);
      else if (kind === 'param' && b !== undefined)
        for (const scheme of ['http', 'https']) for (const end of ['/', ':']) add(`${scheme}://${a}${end}`);
    }
    return [...ranges];
  }

  /** Every trap declared so far, for people: its rule and pattern. */
  list(): { rule: TrapHit['rule']; pattern: string }[] {
    this.load();
    return [...this.declared.values()].map(({ rule, pattern }) => ({ rule, pattern }));
  }

  /** Forgets what is in memory (the crawl's storage was deleted). */
  forget(): void {
    this.made.clear();
    this.groups.clear();
    this.hosts.clear();
    this.declared.clear();
    this.loaded = false;
    this.storedDepths = null;
  }

  private group(key: string): GroupWatch {
    let group = this.groups.get(key);
    if (!group) {
      if (this.groups.size >= MAX_GROUPS) this.evict();
      group = { recent: [], members: [], trapped: false };
      this.groups.set(key, group);
    }
    return group;
  }

  /** The oldest group not trapped is forgotten (a trapped one is kept: its URLs are still to be skipped). */
  private evict(): void {
    for (const [key, group] of this.groups)
      if (!group.trapped) {
        this.groups.delete(key);
        return;
      }
  }

  private host(url: string): HostWatch {
    const key = hostKey(url);
    let host = this.hosts.get(key);
    if (!host) {
      if (this.hosts.size >= MAX_HOSTS) this.hosts.delete(this.hosts.keys().next().value ?? '');
      host = { depth: null, params: new Map(), ignored: new Set(), echoes: [], paths: new Map() };
      this.hosts.set(key, host);
    }
    return host;
  }

  /**
   * How deep the host's pages of their own go: learned as pages are stored, or, the first time after a wake, the most
   * segments of a stored URL of this URL's origin.
   */
  private depthOf(url: string, host: HostWatch): number {
    if (host.depth === null) host.depth = this.depths().get(originOf(url)) ?? 0;
    return host.depth;
  }

  /** The most segments of a stored URL's path, by origin: every stored URL read once per wake (a scan, rows read). */
  private depths(): Map<string, number> {
    if (this.storedDepths) return this.storedDepths;
    const depths = new Map<string, number>();
    this.stored(({ url }) => {
      const origin = originOf(url);
      depths.set(origin, Math.max(depths.get(origin) ?? 0, segmentsOf(url).length));
    });
    this.storedDepths = depths;
    return depths;
  }

  /** The traps declared before the object woke (once). */
  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    for (const raw of this.ledger.exec('SELECT key, rule, pattern FROM traps')) {
      const row = declarationSchema.parse(raw);
      this.declared.set(row.key, row);
      const [kind, a = '', b = ''] = row.key.split('\t');
      if (kind === 'pattern') this.group(a).trapped = true;
      if (kind === 'echo') this.host(a).echoes.push(a);
      if (kind === 'param') {
        const host = this.hosts.get(a) ?? this.host(`http://${a}/`);
        host.ignored.add(b);
      }
    }
  }
}
