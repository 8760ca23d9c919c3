/**
 * The documentation sets of the docs truth (lib/docs-truth.ts): HTML documentation installed from Debian packages,
 * one set per generator and theme, each with the marker of its own main block (a set whose root is not on the machine
 * is skipped), and the project's own test pages of blocks of links inside and around the content
 * (test/fixtures/extract/pages).
 */

export interface DocsSet {
  name: string;
  /** The folder holding the set's HTML. */
  root: string;
  /** Relative paths of pages to consider (default: every .html file). */
  include?: RegExp;
  /** The main block, as the generator marks it (the first match). */
  main: string;
  /** The page's title heading inside the main block (default: the first h1). */
  title?: string;
  /** Elements inside the main block that are not content: permalink signs, copy buttons (default: none). */
  drop?: string;
  /** Code blocks (default: pre, outermost only). */
  code?: string;
  /** Sample each top folder alike (a set of several books), rather than in proportion to its pages. */
  perFolder?: boolean;
  /** Pages always in the sample (relative paths), for a shape the even spread could miss. */
  pin?: string[];
  /** Navigation that is not links (DocBook's next and previous titles), for the texts that must not leak. */
  nav?: string;
}

const DOC = '/usr/share/doc';
/** Pages that are not content in any generator: indexes of terms, search, 404s. */
export const NOT_CONTENT = /(^|\/)(genindex[^/]*|search|py-modindex|404|searchindex|SUMMARY|print)\.html$/;

const SPHINX_DROP = 'a.headerlink';

export const DOCS_SETS: DocsSet[] = [
  {
    name: 'python',
    root: `${DOC}/python3.11/html`,
    main: 'div.body[role=main], div[role=main]',
    drop: SPHINX_DROP,
    // A table of the 71 built-in functions, each a link, inside the content.
    pin: ['library/functions.html'],
  },
  { name: 'django', root: `${DOC}/python-django-doc/html`, main: '#yui-main .yui-g', drop: SPHINX_DROP },
  {
    name: 'postgresql',
    root: `${DOC}/postgresql-doc-15/html`,
    main: 'body > div:not(.navheader):not(.navfooter)',
    title: 'h1, h2',
    nav: '.navfooter td, .navheader th',
  },
  {
    name: 'rust-book',
    root: `${DOC}/rust-doc/html`,
    include: /^(book|reference|nomicon|rust-by-example|edition-guide|rustc|rustdoc|embedded-book|unstable-book)\//,
    perFolder: true,
    main: 'main',
    drop: 'button, .buttons',
  },
  {
    name: 'rustdoc',
    root: `${DOC}/rust-doc/html`,
    include: /^(std|core|alloc)\/(?!.*\/?(all|index)\.html$)/,
    main: '#main-content',
    title: 'h1 .in-band',
    drop: 'a.anchor, button, .out-of-band, .srclink, .rightside, #copy-path, summary.hideme',
  },
  {
    name: 'nodejs',
    root: `${DOC}/nodejs/api`,
    include: /^(?!all\.html$)/,
    main: '#apicontent',
    title: 'h2',
    drop: 'a.mark, .srclink',
  },
  { name: 'mkdocs', root: `${DOC}/mkdocs/html`, main: 'div[role=main]', drop: SPHINX_DROP },
  {
    name: 'mkdocs-material',
    root: `${DOC}/mkdocs-literate-nav-doc/html`,
    main: 'article.md-content__inner',
    drop: `${SPHINX_DROP}, a.md-content__button`,
  },
  { name: 'sphinx-rtd-snakemake', root: `${DOC}/snakemake/html`, main: 'div[itemprop=articleBody]', drop: SPHINX_DROP },
  {
    name: 'sphinx-rtd-tweepy',
    root: `${DOC}/python-tweepy-doc/html`,
    main: 'div[itemprop=articleBody]',
    drop: SPHINX_DROP,
  },
  {
    name: 'sphinx-rtd-gitpython',
    root: `${DOC}/python-git-doc/html`,
    main: 'div[itemprop=articleBody]',
    drop: SPHINX_DROP,
  },
  { name: 'mkdocs-rtd', root: `${DOC}/python-typer-doc/html`, main: 'div[role=main]', drop: SPHINX_DROP },
  {
    name: 'pydata-sphinx',
    root: `${DOC}/groonga-doc/en/html`,
    main: 'main[role=main]',
    drop: `${SPHINX_DROP}, .prev-next-area`,
  },
  {
    name: 'doxygen',
    root: `${DOC}/lmdb-doc/html`,
    main: 'div.contents',
    title: '.headertitle .title',
    code: 'pre, div.fragment',
  },
  {
    // Pages written for the extractor's tests: a docs page with a table of linked names, a product with its tags, a
    // post and a docs page with navigation inside their content. Each marks its truth's main block
    // data-truth="main", less what it marks data-truth="out" (attributes the extractor does not read).
    name: 'fixtures',
    root: new URL('../../test/fixtures/extract/pages', import.meta.url).pathname,
    main: '[data-truth=main]',
    drop: `${SPHINX_DROP}, [data-truth=out]`,
  },
];
