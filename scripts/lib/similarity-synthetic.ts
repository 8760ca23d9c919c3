/**
 * Synthetic pairs for measure:similarity, built from the corpora's own texts (seeded, so every run builds the same):
 * positives, two versions of one page that must come out near-identical (a list under another sort order, a counter
 * or a timestamp changed, a sentence added, a session id, a not-found page echoing its path, a calendar's months,
 * facet pages of one list), and negatives, short product pages of one template with different products, that must not.
 */
import type { TextPage } from './similarity-pages.ts';

/** Two texts at two addresses, of one kind of change; `tokens` sizes the page it was made from. */
export interface Version {
  text: string;
  url: string;
}
export interface SyntheticPair {
  kind: string;
  a: Version;
  b: Version;
  /** The source page's name, to show. */
  from: string;
}

/** mulberry32: a small seeded generator, so the synthetic pages are the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const linesOf = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
const pick = <T>(items: T[], random: () => number): T => items[Math.floor(random() * items.length)] as T;

/** A sentence of another page (10 to 30 words), to add. */
function sentenceFrom(pages: TextPage[], random: () => number): string {
  for (let tries = 0; tries < 50; tries++) {
    const sentences = pick(pages, random).text.split(/(?<=[.!?])\s+/);
    const found = sentences.find((s) => s.split(/\s+/).length >= 10 && s.split(/\s+/).length <= 30);
    if (found) return found.replace(/\n/g, ' ');
  }
  return 'The store will be closed on public holidays, and orders placed then are shipped on the next working day.';
}

/** The page with `sentence` added at the end of one of its paragraphs (a line of 10 words or more), else as a line. */
function withSentence(text: string, sentence: string, random: () => number): string {
  const lines = text.split('\n');
  const long = lines.map((line, i) => [line, i] as const).filter(([line]) => line.split(/\s+/).length >= 10);
  if (long.length === 0) return `${text}\n${sentence}`;
  const [, at] = pick(long, random);
  lines[at] = `${lines[at]} ${sentence}`;
  return lines.join('\n');
}

/** Plain positives from one page: re-sorted blocks, a counter, a timestamp, a sentence added, a session id. */
function pagePositives(page: TextPage, pages: TextPage[], random: () => number): SyntheticPair[] {
  const at = (url: string, text: string): Version => ({ text, url });
  const views = 1000 + Math.floor(random() * 90000);
  const day = 1 + Math.floor(random() * 27);
  const sid = (n: number) => Math.floor(n * 1e12).toString(36);
  const [s1, s2] = [sid(random()), sid(random())];
  const pair = (kind: string, a: Version, b: Version) => ({ kind, a, b, from: page.name });
  return [
    pair('re-sorted', at(page.url, page.text), at(page.url, shuffled(linesOf(page.text), random).join('\n'))),
    pair('counter', at(page.url, `${page.text}\n${views} views`), at(page.url, `${page.text}\n${views + 17} views`)),
    pair(
      'timestamp',
      at(page.url, `Last updated: ${day} March 2031, 10:41\n${page.text}`),
      at(page.url, `Last updated: ${day + 1} March 2031, 09:12\n${page.text}`),
    ),
    pair(
      'sentence added',
      at(page.url, page.text),
      at(page.url, withSentence(page.text, sentenceFrom(pages, random), random)),
    ),
    pair(
      'session id',
      at(`${page.url}?sid=${s1}`, `${page.text}\nSession ${s1}`),
      at(`${page.url}?sid=${s2}`, `${page.text}\nSession ${s2}`),
    ),
  ];
}

/** Plain positives from every page of the list. */
export function positives(pages: TextPage[], seed = 43): SyntheticPair[] {
  const random = seeded(seed);
  return pages.flatMap((page) => pagePositives(page, pages, random));
}

/** The path and query of a URL, with the host of one site. */
const onSite = (url: string, site: string) => {
  const parsed = URL.canParse(url) ? new URL(url) : new URL('https://example.org/');
  return `${site}${parsed.pathname}${parsed.search}`;
};

/** Not-found pages of one site, each echoing its own path (the corpus pages' paths), in pairs. */
export function notFoundPages(pages: TextPage[], count: number): Version[] {
  return pages.slice(0, count).map((page) => {
    const url = onSite(page.url, 'https://shop.example');
    const path = new URL(url).pathname;
    const text = [
      'Page not found',
      `Sorry, we could not find ${path}. The page may have moved, or the address may be mistyped.`,
      'Search the shop, or go back to the home page.',
    ].join('\n');
    return { text, url };
  });
}

const MONTHS: Record<string, string[]> = {
  en: 'January February March April May June July August September October November December'.split(' '),
  de: 'Januar Februar März April Mai Juni Juli August September Oktober November Dezember'.split(' '),
  fr: 'janvier février mars avril mai juin juillet août septembre octobre novembre décembre'.split(' '),
};
const WEEK: Record<string, string> = {
  en: 'Mon Tue Wed Thu Fri Sat Sun',
  de: 'Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag',
  fr: 'lundi mardi mercredi jeudi vendredi samedi dimanche',
};
const CALENDAR_TEXT: Record<string, [string, string]> = {
  en: ['Events in', 'No events are planned this month. Subscribe to the calendar to hear of new ones.'],
  de: ['Veranstaltungen im', 'In diesem Monat sind keine Veranstaltungen geplant. Abonnieren Sie den Kalender.'],
  fr: ['Événements en', "Aucun événement n'est prévu ce mois-ci. Abonnez-vous au calendrier."],
};

/** One month of a calendar: its title, the grid of its days under the weekdays, "no events", the months around. */
function monthPage(lang: string, year: number, month: number): Version {
  const names = MONTHS[lang] ?? [];
  const name = (m: number) => `${names[(m + 12) % 12]} ${year + Math.floor(m / 12)}`;
  const [title, none] = CALENDAR_TEXT[lang] ?? ['', ''];
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const offset = (new Date(Date.UTC(year, month, 1)).getUTCDay() + 6) % 7;
  const cells = [...Array<string>(offset).fill(''), ...Array.from({ length: days }, (_, d) => String(d + 1))];
  const rows = Array.from({ length: Math.ceil(cells.length / 7) }, (_, r) => cells.slice(r * 7, r * 7 + 7).join(' '));
  const text = [
    `${title} ${name(month)}`,
    WEEK[lang] ?? '',
    ...rows,
    none,
    `« ${name(month - 1)} | ${name(month + 1)} »`,
  ];
  const url = `https://events.example/${lang}/calendar/${year}/${String(month + 1).padStart(2, '0')}/`;
  return { text: text.join('\n'), url };
}

/** A calendar's month pages, 2029 to 2032, in English, German and French (a series per language). */
export function calendarSeries(): Record<string, Version[]> {
  const series: Record<string, Version[]> = {};
  for (const lang of Object.keys(MONTHS))
    series[lang] = Array.from({ length: 48 }, (_, m) => monthPage(lang, 2029 + Math.floor(m / 12), m % 12));
  return series;
}

/**
 * Facet pages of one list: a corpus page of 20 lines or more is the list, shown sorted by another key (the same
 * items) and filtered to 90%, 75% and 50% of them, each under a line naming its facet (its query value).
 */
export function facetPairs(pages: TextPage[], seed = 7): SyntheticPair[] {
  const random = seeded(seed);
  const site = 'https://shop.example/list';
  const facet = (items: string[], key: string, value: string): Version => ({
    text: [`Showing ${items.length} items, ${key}: ${value}`, ...items].join('\n'),
    url: `${site}?${key}=${encodeURIComponent(value)}`,
  });
  return pages
    .filter((p) => linesOf(p.text).length >= 20)
    .flatMap((page) => {
      const items = linesOf(page.text);
      const base = facet(items, 'sort', 'relevance');
      const subset = (share: number) => items.filter(() => random() < share);
      const pair = (kind: string, b: Version) => ({ kind, a: base, b, from: page.name });
      return [
        pair('facet: same items re-sorted', facet(shuffled(items, random), 'sort', 'price-ascending')),
        pair('facet: 90% of the items', facet(subset(0.9), 'colour', 'dark blue')),
        pair('facet: 75% of the items', facet(subset(0.75), 'size', 'XL')),
        pair('facet: 50% of the items', facet(subset(0.5), 'brand', 'Acme')),
      ];
    });
}

const TEMPLATE = [
  'In stock. Delivered in 2 to 4 working days.',
  'Add to basket',
  'Free delivery on orders over 50 €. Returns accepted within 30 days.',
  'Product details',
];

/**
 * Short product pages of one shop's template (name, price, stock line, the product's description, buttons, SKU):
 * names are the first words of corpus pages' first lines, descriptions sentences of `min` to `max` words from their
 * text (a product's own words), prices and SKUs drawn at random; each at /products/<slug of its name>.
 */
export function productCatalog(pages: TextPage[], min: number, max: number, seed = 11): Version[] {
  const random = seeded(seed);
  const catalog: Version[] = [];
  for (const page of pages) {
    const words = page.text.split(/\s+/).filter(Boolean);
    if (words.length < max + 5) continue;
    const name = (linesOf(page.text)[0] ?? '').split(/\s+/).slice(0, 4).join(' ');
    const start = 5 + Math.floor(random() * Math.max(1, words.length - max - 5));
    const description = words.slice(start, start + min + Math.floor(random() * (max - min + 1))).join(' ');
    const price = `${(5 + random() * 200).toFixed(2)} €`;
    const sku = `SKU ${100000 + Math.floor(random() * 900000)}`;
    const slug = name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-');
    const text = [name, price, TEMPLATE[0], description, ...TEMPLATE.slice(1), sku].join('\n');
    catalog.push({ text, url: `https://shop.example/products/${slug}` });
  }
  return catalog;
}
