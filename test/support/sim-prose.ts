/**
 * Deterministic prose for the simulated web (sim-web.ts): a site's name, sections and articles, and every page's
 * paragraphs, drawn from a seed with a small PRNG, so that each page has words of its own and a crawl of the same
 * seed sees the same web.
 */

/** mulberry32: a fast, well-mixed 32-bit PRNG; numbers in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for (seed, a, b): distinct streams for each site and page. */
export function mix(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part & 0xffff), 0x01000193);
    h = Math.imul(h ^ (part >>> 16), 0x01000193);
  }
  return h >>> 0;
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const TOPICS: Record<string, readonly string[]> = {
  gardening: ['soil', 'compost', 'seedling', 'hedge', 'trellis', 'mulch', 'greenhouse', 'orchard', 'bulb', 'pruning'],
  astronomy: ['telescope', 'nebula', 'eclipse', 'comet', 'orbit', 'meteor', 'galaxy', 'lens', 'horizon', 'planet'],
  cooking: ['saucepan', 'broth', 'pastry', 'marinade', 'skillet', 'spice', 'dough', 'oven', 'glaze', 'harvest'],
  cycling: ['saddle', 'gear', 'chain', 'climb', 'descent', 'tyre', 'frame', 'route', 'cadence', 'helmet'],
  sailing: ['hull', 'mast', 'rudder', 'harbour', 'tide', 'anchor', 'jib', 'current', 'keel', 'mooring'],
  woodwork: ['chisel', 'joint', 'grain', 'plane', 'lathe', 'dovetail', 'veneer', 'clamp', 'timber', 'finish'],
  birding: ['warbler', 'wetland', 'plumage', 'migration', 'binocular', 'nest', 'heron', 'song', 'estuary', 'flock'],
  photography: ['shutter', 'aperture', 'exposure', 'tripod', 'portrait', 'lens', 'darkroom', 'frame', 'light', 'print'],
  beekeeping: ['hive', 'colony', 'queen', 'nectar', 'comb', 'smoker', 'swarm', 'pollen', 'frame', 'apiary'],
  pottery: ['kiln', 'glaze', 'wheel', 'clay', 'slip', 'vessel', 'firing', 'bisque', 'studio', 'handle'],
  hiking: ['trail', 'ridge', 'summit', 'valley', 'boots', 'map', 'cairn', 'shelter', 'stream', 'pass'],
  chess: ['opening', 'gambit', 'endgame', 'pawn', 'bishop', 'tempo', 'fortress', 'rook', 'tactic', 'clock'],
};
const TOPIC_NAMES = Object.keys(TOPICS);

const NOUNS = [
  'morning',
  'season',
  'neighbour',
  'workshop',
  'village',
  'library',
  'journal',
  'method',
  'habit',
  'weekend',
  'beginner',
  'expert',
  'tool',
  'question',
  'mistake',
  'lesson',
  'detail',
  'pattern',
  'surface',
  'weather',
  'budget',
  'afternoon',
  'friend',
  'market',
  'notebook',
  'sketch',
  'recipe',
  'corner',
  'window',
  'club',
  'afterthought',
  'evening',
  'routine',
  'storage',
  'shortcut',
  'practice',
  'record',
  'problem',
  'answer',
  'change',
];
const ADJECTIVES = [
  'quiet',
  'patient',
  'steady',
  'careful',
  'simple',
  'modest',
  'bright',
  'rough',
  'gentle',
  'sharp',
  'heavy',
  'light',
  'early',
  'late',
  'old',
  'new',
  'small',
  'generous',
  'stubborn',
  'curious',
  'reliable',
  'cheap',
  'fine',
  'uneven',
  'sturdy',
  'clever',
  'familiar',
  'forgotten',
  'local',
  'seasonal',
  'useful',
  'honest',
  'slow',
  'quick',
];
const VERBS = [
  'shape',
  'change',
  'improve',
  'hide',
  'reveal',
  'support',
  'ruin',
  'reward',
  'teach',
  'need',
  'follow',
  'outlast',
  'surprise',
  'protect',
  'test',
  'explain',
  'repair',
  'measure',
  'balance',
  'guide',
  'soften',
  'watch',
  'carry',
];
/** A verb's third person singular: teaches, carries, shapes. */
const third = (verb: string) =>
  /(ch|sh)$/.test(verb) ? `${verb}es` : /[^aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ies` : `${verb}s`;
const ADVERBS = [
  'rarely',
  'often',
  'usually',
  'sometimes',
  'quietly',
  'slowly',
  'always',
  'mostly',
  'seldom',
  'gently',
];
const OPENERS = [
  'In our experience,',
  'Over the years,',
  'As a rule,',
  'Most weekends,',
  'Every spring,',
  'Sooner or later,',
  'To be fair,',
  'In practice,',
  'Looking back,',
  'For most readers,',
  'Without much fuss,',
  'Once in a while,',
];
const PLACES = ['in the shed', 'at the club', 'on the coast', 'near the old mill', 'by the river', 'up the hill'];
const NAMES = ['Ada', 'Bram', 'Cleo', 'Dev', 'Elin', 'Farid', 'Greta', 'Hugo', 'Iris', 'Jonas', 'Kira', 'Lev'];
const SITE_WORDS = ['Notes', 'Journal', 'Corner', 'Field Guide', 'Almanac', 'Workshop', 'Letters', 'Quarterly'];

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const a = (word: string) => (/^([aeio]|u[^s]|hon)/.test(word) ? `an ${word}` : `a ${word}`);
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function sentence(random: () => number, topic: readonly string[]): string {
  const noun = () => (random() < 0.5 ? pick(random, topic) : pick(random, NOUNS));
  const adj = () => pick(random, ADJECTIVES);
  const verb = () => pick(random, VERBS);
  switch (Math.floor(random() * 6)) {
    case 0:
      return `${pick(random, OPENERS)} the ${adj()} ${noun()} ${third(verb())} the ${noun()} more than expected.`;
    case 1:
      return `${pick(random, NAMES)} ${pick(random, ADVERBS)} says that ${a(adj())} ${noun()} ${third(verb())} every ${noun()} ${pick(random, PLACES)}.`;
    case 2:
      return `${capital(a(adj()))} ${noun()} is worth ${Math.floor(random() * 50) + 2} minutes of ${adj()} ${noun()}, ${pick(random, ADVERBS)} more.`;
    case 3:
      return `Why does the ${noun()} ${verb()} the ${adj()} ${noun()}? Because the ${noun()} ${pick(random, ADVERBS)} ${third(verb())} it.`;
    case 4:
      return `${capital(pick(random, ADVERBS))}, ${pick(random, PLACES)}, the ${noun()} and the ${noun()} ${verb()} each other.`;
    default:
      return `We kept ${a(adj())} ${noun()} for ${Math.floor(random() * 12) + 1} weeks, and it ${third(verb())} the ${adj()} ${noun()}.`;
  }
}

/** `count` paragraphs of 3 to 6 sentences, as HTML. */
export function paragraphs(random: () => number, topic: string, count: number): string {
  const words = TOPICS[topic] ?? NOUNS;
  const out: string[] = [];
  for (let p = 0; p < count; p++) {
    const n = 3 + Math.floor(random() * 4);
    out.push(`<p>${Array.from({ length: n }, () => sentence(random, words)).join(' ')}</p>`);
  }
  return out.join('\n');
}

/** A page of a site: its path, title, and the paths it links to (besides the shared navigation). */
export interface SitePage {
  path: string;
  title: string;
  /** The section it belongs to (-1: the home page), and its index in that section (-1: the section's own page). */
  section: number;
  article: number;
  links: string[];
}

/** What a site is: its name, topic and twelve pages (a home page, three sections, eight articles). */
export interface SitePlan {
  name: string;
  topic: string;
  pages: SitePage[];
  sections: SitePage[];
}

/** Articles per section: 3 + 3 + 2, so that a site has 12 pages. */
const ARTICLES = [3, 3, 2];

/** The plan of site `index` of the web drawn from `seed`. */
export function sitePlan(seed: number, index: number): SitePlan {
  const random = prng(mix(seed, index, 0xbeef));
  const topic = pick(random, TOPIC_NAMES);
  const words = TOPICS[topic] as readonly string[];
  const name = `The ${capital(pick(random, ADJECTIVES))} ${capital(topic)} ${pick(random, SITE_WORDS)}`;
  const used = new Set<string>();
  const fresh = (make: () => string) => {
    for (let tries = 0; ; tries++) {
      const s = make();
      if (!used.has(s) || tries > 20) {
        const unique = used.has(s) ? `${s}-${used.size}` : s;
        used.add(unique);
        return unique;
      }
    }
  };
  const home: SitePage = { path: '/', title: name, section: -1, article: -1, links: [] };
  const pages: SitePage[] = [home];
  const sections: SitePage[] = [];
  ARTICLES.forEach((articles, s) => {
    const sectionSlug = fresh(() => slug(`${pick(random, ADJECTIVES)} ${pick(random, words)}s`));
    const section: SitePage = {
      path: `/${sectionSlug}/`,
      title: capital(sectionSlug.replace(/-/g, ' ')),
      section: s,
      article: -1,
      links: [],
    };
    sections.push(section);
    pages.push(section);
    for (let a = 0; a < articles; a++) {
      const title = `${capital(pick(random, ['how', 'why', 'when']))} the ${pick(random, ADJECTIVES)} ${pick(random, words)} ${third(pick(random, VERBS))} the ${pick(random, NOUNS)}`;
      const path = `/${sectionSlug}/${fresh(() => slug(title))}.html`;
      const article: SitePage = { path, title, section: s, article: a, links: [section.path] };
      section.links.push(path);
      pages.push(article);
    }
  });
  home.links = sections.map((s) => s.path);
  return { name, topic, pages, sections };
}
