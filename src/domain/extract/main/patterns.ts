/**
 * What markup says of itself: the containers that generators and CMSs put the main content in, and the ids and
 * classes of page furniture. Patterns of software (Sphinx, Docusaurus, MkDocs, WordPress, Drupal, rustdoc...),
 * never of one site.
 */
import type { DomElement } from '../dom';

/** Containers of the main content, most specific first: schema.org's articleBody, then generators' own, then HTML's. */
export const CONTENT_SELECTORS = [
  '[itemprop="articleBody"]',
  '.theme-doc-markdown',
  'article .markdown',
  '.md-content__inner',
  '.field--name-body',
  '.entry-content',
  '.post-content',
  '.post-body',
  '.article-body',
  '.article-content',
  '.story-body',
  '#main-content',
  '.navheader + div',
  'div[role="main"]',
  'div.body',
  'article',
  'main',
  '[role="main"]',
];

/** Words in ids and classes of furniture: navigation, sidebars, comments, sharing, related links, meta lines. */
const BOILER_WORDS = [
  'nav',
  'navbar',
  'navigation',
  'navheader',
  'navfooter',
  'navbox',
  'menu',
  'breadcrumbs?',
  'sidebar',
  'side-?bar',
  'widgets?',
  'footer',
  'comments?',
  'comment-list',
  'commentlist',
  'respond',
  'disqus',
  'related',
  'relatedposts',
  'recommended',
  'recommendations?',
  'share',
  'sharing',
  'social',
  'shariff',
  'sharedaddy',
  'addthis',
  'newsletter',
  'subscribe',
  'subscription',
  'promo',
  'advert',
  'advertisement',
  'ads?',
  'sponsored',
  'banner',
  'popup',
  'modal',
  'pagination',
  'pager',
  'prev',
  'next',
  'post-?nav',
  'tags?',
  'tagcloud',
  'categories',
  'meta',
  'byline',
  'author',
  'dateline',
  'timestamp',
  'published',
  'toc',
  'caption',
  'credits?',
  'copyright',
  'skip',
  'rating',
  'login',
  'signup',
  'paywall',
  'most-?popular',
  'trending',
  'outbrain',
  'taboola',
  // API documentation's interface beside an item: version and source links, toggles (rustdoc; not 'srclink': has-srclink).
  'out-of-band',
  'rightside',
  'hideme',
];
const BOILER = new RegExp(`(^|[\\s_-])(${BOILER_WORDS.join('|')})([\\s_-]|$)`, 'i');

/** Roles of furniture. */
const BOILER_ROLES = new Set(['navigation', 'complementary', 'contentinfo', 'banner', 'search', 'menu', 'menubar']);

const HEADING = /^h[1-6]$/;
/** Children looked at for a section's heading (Sphinx puts empty anchor spans before it). */
const HEADING_WITHIN = 6;

/**
 * Whether an element's id is the anchor of a document section: its heading links to itself (a permalink, as
 * Sphinx, DocBook and MkDocs print). Such an id is a slug of the heading ("s-specifying-widgets"), not a name.
 */
function anchoredSection(element: DomElement): boolean {
  for (const child of Array.from(element.children).slice(0, HEADING_WITHIN))
    if (HEADING.test(child.localName)) return child.querySelector('a[href^="#"]') !== null;
  return false;
}

/**
 * Whether an element's id (unless a section's anchor), class or role names it as furniture; class names whose
 * furniture words are all in `own` (words the content itself wears: a page builder's `elementor-widget-container`
 * around the prose) do not count.
 */
export function namedFurniture(element: DomElement, own?: ReadonlySet<string>): boolean {
  const id = anchoredSection(element) ? null : element.getAttribute('id');
  let className = element.getAttribute('class');
  if (own && own.size > 0 && className)
    className = className
      .split(/\s+/)
      .filter((name) => furnitureWords(name).some((word) => !own.has(word)))
      .join(' ');
  return namedBoilerplate(id, className, element.getAttribute('role'));
}

const BOILER_WORD = new RegExp(`(?:^|[\\s_-])(${BOILER_WORDS.join('|')})(?=[\\s_-]|$)`, 'gi');

/** The furniture words in a class name, lower-cased ("elementor-widget-container": "widget"). */
export function furnitureWords(name: string): string[] {
  return Array.from(name.matchAll(BOILER_WORD), (match) => (match[1] ?? '').toLowerCase());
}

/** Whether an element's id, class or role names it as furniture. */
export function namedBoilerplate(id: string | null, className: string | null, role: string | null): boolean {
  if (role && BOILER_ROLES.has(role)) return true;
  return BOILER.test(`${id ?? ''} ${className ?? ''}`);
}

/**
 * A class or id that names a list of tags or categories: the token ends with the word ("tags", "product__tags",
 * "tag-list", "tagged_as", "categories"), so that WordPress's per-post classes ("tag-linen") do not.
 */
const TAGS = /(^|[_-])(tags?|tag-?list|tagged(?:[_-]as)?|categories)$/i;

/** Whether an element's class or id names it as a list of tags or categories. */
export function namedTags(element: DomElement): boolean {
  const names = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`;
  return names.split(/\s+/).some((token) => TAGS.test(token));
}

const TOC = /(^|[\s_-])toc([\s_-]|$)/gi;
/** A table of contents this share of whose links lead to other pages is a chapter's list of its sections. */
const OTHER_PAGES = 0.5;

/** Sphinx's table of a document's child pages, written where the page's author put it: content. */
const TOCTREE = /(^|\s)toctree-wrapper(\s|$)/;

/**
 * Whether an element is a page's table of its parts: Sphinx's toctree, or an element named as a table of contents
 * (and nothing else) whose links lead to other pages (DocBook's chapter `div.toc`), unlike a table of in-page
 * anchors beside an article.
 */
export function chapterToc(element: DomElement): boolean {
  const id = element.getAttribute('id') ?? '';
  const className = element.getAttribute('class') ?? '';
  if (TOCTREE.test(className)) return true;
  const names = `${id} ${className}`;
  if (!names.match(TOC) || namedBoilerplate(null, names.replace(TOC, ' '), element.getAttribute('role'))) return false;
  const links = Array.from(element.querySelectorAll('a[href]'));
  const away = links.filter((a) => !(a.getAttribute('href') ?? '').startsWith('#')).length;
  return links.length > 0 && away >= links.length * OTHER_PAGES;
}
