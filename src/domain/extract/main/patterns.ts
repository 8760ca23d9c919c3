/**
 * What markup says of itself: the containers that generators and CMSs put the main content in, and the ids and
 * classes of page furniture. Patterns of software (Sphinx, Docusaurus, MkDocs, WordPress, Drupal, rustdoc...),
 * never of one site.
 */

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
];
const BOILER = new RegExp(`(^|[\\s_-])(${BOILER_WORDS.join('|')})([\\s_-]|$)`, 'i');

/** Roles of furniture. */
const BOILER_ROLES = new Set(['navigation', 'complementary', 'contentinfo', 'banner', 'search', 'menu', 'menubar']);

/** Whether an element's id, class or role names it as furniture. */
export function namedBoilerplate(id: string | null, className: string | null, role: string | null): boolean {
  if (role && BOILER_ROLES.has(role)) return true;
  return BOILER.test(`${id ?? ''} ${className ?? ''}`);
}
