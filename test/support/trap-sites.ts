/**
 * Sites with a crawler trap beside their real pages, as the web has them (test/integration/traps.test.ts, and the
 * broad bench's trap hosts). Each has twelve or so real pages of distinct prose, and one trap reached from them:
 *   calendar   events/<year>/<month>/: each month links the month before and after, for ever; months near-identical.
 *   agenda     events?month=<yyyy-mm>: the same in the query, some months with an event of their own.
 *   facets     shop/: a product list whose filters and sort orders (color, size, sort, view) make URLs of the same
 *              list, each linking more combinations; shop/?page=2 is a real second page.
 *   loop       docs/: a page any path under docs/ answers, with relative links (guide/, reference/).
 *   session    every link carries a new session id (?sid=...) on every answer.
 *   visit      the same, with a parameter no list names (?visit=...).
 *   soft404    links to pages that are gone; any unknown path answers 200 "Page not found", linking two more.
 *   pages      a blog's pages blog/page/<n>/: three of posts of their own, then "No more posts" for ever, each page
 *              linking the next (pagination past the end).
 *   retire     no trap yet: its pages and old-page.html; after GET <base>__retire, old-page.html and any unknown path
 *              answer 200 "Page not found" (a page removed from a site that answers soft 404s), for recrawls.
 *   near       no trap: pages almost the same as others (near-duplicates): one list in three sort orders
 *              (list-price.html, list-name.html, list-new.html), one article under two URLs with a view counter that
 *              changes on every answer (article.html, article-print.html).
 * Paths are relative to the site's base (the path it is served under). `spentInTrap` says which requests were the trap's.
 */

// ---- deterministic prose: paragraphs different for every seed, so the real pages are truly different pages ----

const SUBJECTS = [
  'The harbour council',
  'A small bakery on the corner',
  'Our volunteer team',
  'The regional library',
  'Every spring the orchard',
  'The old railway bridge',
  'A local choir',
  'The museum of maps',
  'Our garden club',
  'The weekend market',
  'A retired engineer',
  'The mountain rescue service',
  'The village school',
  'A family of beekeepers',
  'The river festival',
  'Our cycling group',
];
const VERBS = [
  'has restored',
  'is planning',
  'quietly rebuilt',
  'will open',
  'documented',
  'celebrated',
  'measured',
  'repainted',
  'borrowed',
  'collected',
  'described',
  'repaired',
  'photographed',
  'invited neighbours to',
  'wrote a guide to',
  'mapped',
];
const OBJECTS = [
  'the lighthouse stairs',
  'a collection of postcards',
  'the northern footpath',
  'three wooden boats',
  'an archive of weather records',
  'the stone fountain',
  'a recipe for rye bread',
  'the clock tower mechanism',
  'two hundred apple trees',
  'the tram depot',
  'a winter concert programme',
  'the salt marsh boardwalk',
  'a forgotten canal lock',
  'the town hall murals',
  'a map of the old quarry',
  'the seed library shelves',
];
const TAILS = [
  'after a long and rainy season',
  'with help from students',
  'before the first frost',
  'using materials found in the attic',
  'in time for the anniversary',
  'despite a tight budget',
  'for visitors of every age',
  'so that children can learn the trade',
  'while the tide was out',
  'with a grant from the county',
  'after months of careful planning',
  'to the surprise of everyone',
];

/** A small linear congruential generator: the same seed, the same numbers. */
function generator(seed: string): () => number {
  let x = 2166136261;
  for (let i = 0; i < seed.length; i++) x = Math.imul(x ^ seed.charCodeAt(i), 16777619) >>> 0;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x;
  };
}

const pick = <T>(list: readonly T[], next: () => number): T => list[next() % list.length] as T;

/** `count` paragraphs of three to five sentences each, different for every seed. */
function prose(seed: string, count = 3): string[] {
  const next = generator(seed);
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 3 + (next() % 3) },
      () => `${pick(SUBJECTS, next)} ${pick(VERBS, next)} ${pick(OBJECTS, next)} ${pick(TAILS, next)}.`,
    ).join(' '),
  );
}

/** A title for a seed's page. */
function titleOf(seed: string): string {
  const next = generator(`title ${seed}`);
  const object = pick(OBJECTS, next);
  return `${object.charAt(0).toUpperCase()}${object.slice(1)}`;
}

export const TRAP_KINDS = [
  'calendar',
  'agenda',
  'facets',
  'loop',
  'session',
  'visit',
  'soft404',
  'near',
  'retire',
  'pages',
] as const;
export type TrapKind = (typeof TRAP_KINDS)[number];

export interface TrapReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const REAL = ['', 'about.html', 'news.html', ...Array.from({ length: 9 }, (_, i) => `p${i + 1}.html`)];

const htmlReply = (body: string, status = 200): TrapReply => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body,
});

/** A page of the site: a nav, its heading and paragraphs, more links, a footer. */
function page(base: string, title: string, paragraphs: string[], links: string[], link = (href: string) => href) {
  const nav = [
    ['', 'Home'],
    ['about.html', 'About'],
    ['news.html', 'News'],
  ]
    .map(([href, text]) => `<a href="${link(`${base}${href}`)}">${text}</a>`)
    .join(' ');
  const more = links.map(
    (href) => `<li><a href="${link(href)}">${href.split('/').filter(Boolean).pop() ?? 'home'}</a></li>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>
<header><nav>${nav}</nav></header>
<main><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}<ul>${more.join('')}</ul></main>
<footer><p>Copyright the site. All rights reserved.</p></footer></body></html>`;
}

/** The trap's entry links on the home page. */
const ENTRIES: Record<TrapKind, string[]> = {
  calendar: ['events/2026/12/'],
  agenda: ['events?month=2026-12'],
  facets: ['shop/'],
  loop: ['docs/'],
  session: [],
  visit: [],
  soft404: ['old-1.html', 'old-2.html'],
  near: ['list-price.html', 'list-name.html', 'list-new.html', 'article.html', 'article-print.html'],
  retire: ['old-page.html'],
  pages: ['blog/page/1/'],
};

/** The bases of the retire sites whose old page is gone (GET <base>__retire). */
const retired = new Set<string>();

/** A real page of the site, or null for a path that is not one. */
function realPage(kind: TrapKind, base: string, rest: string, link: (href: string) => string): TrapReply | null {
  const i = REAL.indexOf(rest);
  if (i === -1) return null;
  const seed = `${kind} ${base} ${rest}`;
  const others = REAL.filter((p) => p !== rest).map((p) => `${base}${p}`);
  const entries = rest === '' ? ENTRIES[kind].map((e) => `${base}${e}`) : [];
  const gone = kind === 'soft404' && i > 2 ? [`${base}old-${i}.html`] : [];
  return htmlReply(page(base, titleOf(seed), prose(seed, 3), [...others, ...entries, ...gone], link));
}

const MONTH_NAMES = 'January February March April May June July August September October November December'.split(' ');

/** A month of a calendar (year, month 1-12), with the month before and after as `href(year, month)`. */
function monthPage(base: string, year: number, month: number, href: (y: number, m: number) => string, event = '') {
  const at = (delta: number) => {
    const m = (year * 12 + month - 1 + delta) % 12;
    return [Math.floor((year * 12 + month - 1 + delta) / 12), m + 1] as const;
  };
  const text = event || 'No events are scheduled this month. Check back later for new dates.';
  return htmlReply(
    page(base, `Events in ${MONTH_NAMES[month - 1]} ${year}`, [text], [href(...at(-1)), href(...at(1))]),
  );
}

function calendar(base: string, rest: string, search: URLSearchParams): TrapReply | null {
  const path = /^events\/(\d{4})\/(\d{1,2})\/$/.exec(rest);
  if (path) {
    const [year, month] = [Number(path[1]), Number(path[2])];
    return monthPage(base, year, month, (y, m) => `${base}events/${y}/${String(m).padStart(2, '0')}/`);
  }
  const query = /^(\d{4})-(\d{2})$/.exec(search.get('month') ?? '');
  if (rest === 'events' && query) {
    const [year, month] = [Number(query[1]), Number(query[2])];
    // Some months have an event of their own: a calendar is not all the same page.
    const event =
      (year * 12 + month) % 5 === 0 ? `The ${MONTH_NAMES[month - 1]} fair opens on the ${month + 3}th.` : '';
    return monthPage(base, year, month, (y, m) => `${base}events?month=${y}-${String(m).padStart(2, '0')}`, event);
  }
  return null;
}

const FACETS: Record<string, string[]> = {
  color: ['red', 'blue', 'green'],
  size: ['s', 'm', 'l'],
  sort: ['price', 'name', 'new'],
  view: ['grid', 'list'],
};
const ITEMS = Array.from({ length: 8 }, (_, i) => `Item ${i + 1}: ${titleOf(`item ${i + 1}`)}`);
const PAGE_TWO = Array.from({ length: 4 }, (_, i) => `Item ${i + 9}: ${titleOf(`item ${i + 9}`)}`);

/** The shop's list under any filters: the same items (reordered by a sort), links to one more filter each. */
function shop(base: string, rest: string, search: URLSearchParams): TrapReply | null {
  if (rest !== 'shop/') return null;
  const params = [...search.keys()];
  if (params.some((p) => p !== 'page' && !(p in FACETS))) return null;
  const second = search.get('page') === '2';
  const items = second ? PAGE_TWO : search.get('sort') === 'name' ? [...ITEMS].reverse() : ITEMS;
  const more = Object.entries(FACETS).flatMap(([name, values]) =>
    values.map((value) => {
      const next = new URLSearchParams(search);
      next.set(name, value);
      return `${base}shop/?${next.toString()}`;
    }),
  );
  const pages = second ? [`${base}shop/`] : [`${base}shop/?page=2`];
  return htmlReply(
    page(base, second ? 'Shop, page 2' : 'Shop', [`Showing ${items.length} products.`, ...items], [...pages, ...more]),
  );
}

/** docs/ and any path under it: the same page, with relative links. */
function docs(kind: TrapKind, base: string, rest: string): TrapReply | null {
  if (!rest.startsWith('docs/')) return null;
  const seed = `${kind} ${base} docs`;
  const body = page(base, 'Documentation', prose(seed, 4), ['guide/', 'reference/', `${base}about.html`]);
  return htmlReply(body);
}

/** What any path the site does not have answers: 200, "Page not found", linking two more made-up paths. */
function notFound(base: string, rest: string): TrapReply {
  const n = rest.length;
  return htmlReply(
    page(
      base,
      'Page not found',
      [`Sorry, the page /${rest} could not be found. It may have moved, or it never existed.`],
      [`${base}missing-${n}-a.html`, `${base}missing-${n}-b.html`, `${base}p1.html`],
    ),
  );
}

/** A session id a server makes up for each answer. */
const sessionId = () => Array.from({ length: 16 }, () => Math.floor(Math.random() * 16).toString(16)).join('');

/** The near site's lookalikes: a list in three orders, an article with a counter under two URLs. */
function lookalike(base: string, rest: string): TrapReply | null {
  const order = /^list-(price|name|new)\.html$/.exec(rest)?.[1];
  if (order) {
    const items = Array.from({ length: 10 }, (_, i) => `${titleOf(`near item ${i}`)}, ${(i * 7) % 13} euros.`);
    const sorted = order === 'price' ? items : order === 'name' ? [...items].sort() : [...items].reverse();
    return htmlReply(page(base, 'Our catalogue', ['Everything we sell, in one list.', ...sorted], []));
  }
  if (rest === 'article.html' || rest === 'article-print.html') {
    // The counter sits in the text's last paragraph (a line of its own is boilerplate extraction cuts: the two would
    // be the same content, not near-duplicates), and has moved on between the two answers. Fixed counts, 1 bit apart:
    // two random ones are 4 bits apart or more in one pair of eight, past the threshold (3 bits).
    const count = rest === 'article.html' ? 48_213 : 48_301;
    const views = ` Since it opened, the harbour museum has counted ${count} visitors.`;
    const paragraphs = prose('near article', 5);
    return htmlReply(
      page(base, 'A history of the harbour', [...paragraphs.slice(0, -1), `${paragraphs.at(-1) ?? ''}${views}`], []),
    );
  }
  return null;
}

/** A blog's page n: posts of its own for the first three, then an empty page past the end, linking the next. */
function blogPage(base: string, rest: string): TrapReply | null {
  const n = Number(/^blog\/page\/(\d+)\/$/.exec(rest)?.[1] ?? 0);
  if (n < 1) return null;
  const posts =
    n <= BLOG_PAGES ? prose(`blog ${base} ${n}`, 4) : ['No more posts. You have reached the end of the blog.'];
  return htmlReply(page(base, `Blog, page ${n}`, posts, [`${base}blog/page/${n + 1}/`]));
}
const BLOG_PAGES = 3;

/** The retire site's old page: a page of its own until the site retires it, then its soft 404, as is any unknown path. */
function retire(base: string, rest: string): TrapReply {
  if (rest === '__retire') {
    retired.add(base);
    return { status: 204, headers: {}, body: '' };
  }
  if (retired.has(base)) return notFound(base, rest);
  if (rest === 'old-page.html') return htmlReply(page(base, 'The old page', prose(`retire ${base}`, 3), []));
  return missing();
}

/** The reply of a trap site for the path after its base (`rest`) and query. */
export function trapSite(kind: TrapKind, base: string, rest: string, search: URLSearchParams): TrapReply {
  const param = kind === 'session' ? 'sid' : kind === 'visit' ? 'visit' : null;
  const link =
    param === null
      ? (href: string) => href
      : (href: string) => `${href}${href.includes('?') ? '&' : '?'}${param}=${sessionId()}`;
  const real = realPage(kind, base, rest, link);
  if (real) return real;
  if (kind === 'calendar' || kind === 'agenda') return calendar(base, rest, search) ?? missing();
  if (kind === 'facets') return shop(base, rest, search) ?? missing();
  if (kind === 'loop') return docs(kind, base, rest) ?? missing();
  if (kind === 'soft404') return notFound(base, rest);
  if (kind === 'near') return lookalike(base, rest) ?? missing();
  if (kind === 'retire') return retire(base, rest);
  if (kind === 'pages') return blogPage(base, rest) ?? missing();
  return missing();
}

const missing = (): TrapReply => ({ status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' });

/** The real pages of a trap site (paths after its base, with its query for the facets' second page). */
export function realPaths(kind: TrapKind): string[] {
  const blog = kind === 'pages' ? Array.from({ length: BLOG_PAGES }, (_, i) => `blog/page/${i + 1}/`) : [];
  return [
    ...REAL,
    ...(kind === 'facets' ? ['shop/', 'shop/?page=2'] : []),
    ...(kind === 'loop' ? ['docs/'] : []),
    ...blog,
  ];
}

/** Whether a request (path after the base, with its query) was spent in the trap. */
export function spentInTrap(kind: TrapKind, rest: string): boolean {
  const [path = '', query = ''] = rest.split('?');
  switch (kind) {
    case 'calendar':
    case 'agenda':
      return path.startsWith('events');
    case 'facets':
      return path === 'shop/' && query !== '' && query !== 'page=2';
    case 'loop':
      return path.startsWith('docs/') && path !== 'docs/';
    case 'session':
      return /(^|&)sid=/.test(query);
    case 'visit':
      return /(^|&)visit=/.test(query);
    case 'soft404':
      return !REAL.includes(path) && path !== 'robots.txt';
    case 'pages':
      return Number(/^blog\/page\/(\d+)\/$/.exec(path)?.[1] ?? 0) > BLOG_PAGES;
    case 'near':
    case 'retire':
      return false;
  }
}
