import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import { parseBounded } from '../../src/domain/extract/dom';

const parseDocument = (html: string) => parseBounded(html, []).document;

import { findMain } from '../../src/domain/extract/main';
import { measure, textChars } from '../../src/domain/extract/main/stats';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';
import {
  ARTICLE_AROUND,
  DOCBOOK_CHAPTER,
  DOCUSAURUS,
  DRUPAL,
  MKDOCS,
  NEWS_READ_ALSO,
  POST_CREDITS,
  paras,
  RECIPE,
  RUSTDOC,
  SPHINX,
  SPHINX_INDEX,
  SPHINX_SECTIONS,
  SPHINX_TABS,
  SPHINX_TOCTREE,
  SPLIT,
  WORDPRESS,
} from '../fixtures/extract/pages';

const SPEC: ExtractSpec = { formats: ['markdown', 'text'], mainContent: true, include: [], exclude: [], fields: {} };
const extract = (html: string) =>
  extractPage(new TextEncoder().encode(html), 'text/html; charset=utf-8', 'https://example.com/page', SPEC);

describe('main content: the walk', () => {
  it('counts characters with whitespace runs as one, and commas', () => {
    expect(textChars('  two  words, \n here ')).toEqual({ chars: 15, commas: 1 });
  });

  it('counts text, link text and prose per element in one walk', () => {
    const document = parseDocument(
      `<!doctype html><html><body><div id="a"><p>${'word '.repeat(30)}</p><ul><li><a href="/x">a link</a></li></ul></div><nav><p>${'menu '.repeat(30)}</p></nav></body></html>`,
    );
    const stats = measure(document.body ?? document.documentElement);
    const div = stats.get(document.querySelector('#a') ?? document.documentElement);
    expect(div).toMatchObject({ linkChars: 6, paragraphs: 1, prose: 149 });
    // Text inside nav is never prose, wherever it is.
    expect(stats.get(document.querySelector('nav') ?? document.documentElement)?.good).toBe(0);
  });
});

describe('main content: documentation generators', () => {
  it('Sphinx: div.body, the h1 first, code and table whole; sidebar, related bar and footer out', async () => {
    const { outputs } = await extract(SPHINX);
    const markdown = outputs.markdown ?? '';
    expect(markdown.startsWith('# json — JSON encoder and decoder')).toBe(true);
    expect(markdown).toContain('```python3\nimport json\njson.dumps([1, 2])\n```');
    expect(markdown).toContain('| JSON | Python |');
    expect(markdown).toContain('| array | list |');
    expect(markdown).toContain('Sphinx usage paragraph 3');
    for (const furniture of ['Table of Contents', 'toc link', 'Previous topic', 'modules', 'Copyright'])
      expect(markdown).not.toContain(furniture);
  });

  it('Sphinx index page: the table of contents is the content, not the footer', async () => {
    const { outputs, record } = await extract(SPHINX_INDEX);
    const text = outputs.text ?? '';
    expect(text.startsWith('The Python Standard Library')).toBe(true);
    expect(text).toContain('library link 30');
    expect(text).not.toContain('Copyright');
    expect(record.warnings).toEqual([]);
  });

  it('MkDocs Material: .md-content__inner; navigation, table of contents and prev/next out', async () => {
    const text = (await extract(MKDOCS)).outputs.text ?? '';
    expect(text.startsWith('Setup')).toBe(true);
    expect(text).toContain('pip install project\nproject serve');
    expect(text).toContain('MkDocs options paragraph 2');
    for (const furniture of ['nav link', 'anchor link', 'Table of contents', 'Previous Introduction', 'Next Usage'])
      expect(text).not.toContain(furniture);
  });

  it('Docusaurus: .theme-doc-markdown; breadcrumbs, sidebar, edit link and pagination out', async () => {
    const markdown = (await extract(DOCUSAURUS)).outputs.markdown ?? '';
    expect(markdown.startsWith('# Create a page')).toBe(true);
    expect(markdown).toContain('```js\nexport default function Page() { return null; }\n```');
    for (const furniture of ['Tutorial Basics', 'doc link', 'Edit this page', 'Previous Tutorial Intro'])
      expect(markdown).not.toContain(furniture);
  });

  it('Sphinx sections: the document section around the heart is read whole, its slug ids are no furniture names', async () => {
    const { outputs, record } = await extract(SPHINX_SECTIONS);
    const markdown = outputs.markdown ?? '';
    expect(markdown.startsWith('# Django 3.2.10 release notes')).toBe(true);
    for (const part of ['fixes a security issue', 'setUpTestData()', 'widgets styled'])
      expect(markdown).toContain(part);
    for (const furniture of ['Django 3.2.25 documentation', 'sidebar link', 'next release notes'])
      expect(markdown).not.toContain(furniture);
    expect(record.warnings.join(' ')).not.toContain('whole body');
  });

  it('DocBook chapter: the division after the navigation header, its table of sections kept, the navigation tables out', async () => {
    const text = (await extract(DOCBOOK_CHAPTER)).outputs.text ?? '';
    expect(text.startsWith('Chapter 33. Regression Tests')).toBe(true);
    expect(text).toContain('33.12. Regression section 12');
    expect(text).toContain('comprehensive set of tests');
    for (const furniture of ['Prev', 'Part III. Server Administration', 'Home', 'Installing on Windows'])
      expect(text).not.toContain(furniture);
  });

  it("Sphinx toctree: a short index page keeps its table of child pages and its title, the site's h1 not taken", async () => {
    const { outputs, record } = await extract(SPHINX_TOCTREE);
    const markdown = outputs.markdown ?? '';
    expect(markdown.startsWith('# Handling HTTP requests')).toBe(true);
    expect(markdown).toContain('topic link 9');
    for (const furniture of ['Django 3.2.25 documentation', 'sidebar link']) expect(markdown).not.toContain(furniture);
    expect(record.warnings.join(' ')).not.toContain('whole body');
  });

  it('sphinx-tabs: every tab panel is content, the hidden ones too (a reader opens them); other hidden text is not', async () => {
    const markdown = (await extract(SPHINX_TABS)).outputs.markdown ?? '';
    expect(markdown).toContain('```python\nclient = Client()\n```');
    expect(markdown).toContain('```python\nstream = Stream()\n```');
    expect(markdown).not.toContain('a hidden note');
  });

  it('rustdoc: #main-content, without the sidebar of items', async () => {
    const text = (await extract(RUSTDOC)).outputs.text ?? '';
    expect(text.startsWith('Struct Vec')).toBe(true);
    expect(text).toContain('let mut vec = Vec::new();');
    // A highlighter's span.comment is the code's own comment: nothing inside code is pruned.
    expect(text).toContain('// a new vector\nlet mut vec');
    expect(text).not.toContain('method link');
    // Its interface beside the item: version, source link, toggles.
    for (const ui of ['1.0.0', 'source', '[−]', 'Expand description']) expect(text).not.toContain(ui);
  });
});

describe('main content: CMSs and plain pages', () => {
  it('WordPress: .entry-content; meta line, sharing, related posts, comments and widgets out', async () => {
    const text = (await extract(WORDPRESS)).outputs.text ?? '';
    expect(text.startsWith('A walk by the river')).toBe(true);
    expect(text).toContain('WordPress paragraph 5');
    for (const furniture of [
      'March 3',
      'Share on',
      'Another walk in the hills',
      'Lovely walk',
      'Leave a Reply',
      'Recent Posts',
      'Proudly',
    ])
      expect(text).not.toContain(furniture);
  });

  it('Drupal: the body field, without tags and the block of more news', async () => {
    const text = (await extract(DRUPAL)).outputs.text ?? '';
    expect(text.startsWith('Annual report')).toBe(true);
    expect(text).toContain('Drupal paragraph 4');
    for (const furniture of ['Tags', 'Reports', 'More news', 'news link', 'Main Street'])
      expect(text).not.toContain(furniture);
  });

  it('an article split in sibling boxes is read whole, without the teasers after it', async () => {
    const text = (await extract(SPLIT)).outputs.text ?? '';
    for (const part of ['First box paragraph 1', 'Second box paragraph 2', 'Third box paragraph 3'])
      expect(text).toContain(part);
    expect(text).not.toContain('teaser link');
    expect(text).not.toContain('Sport');
  });

  it('a recipe keeps its ingredients and steps (the pick is checked against the densest element)', async () => {
    const text = (await extract(RECIPE)).outputs.text ?? '';
    expect(text).toContain('Light pancakes');
    expect(text).toContain('200 g flour, sifted');
    expect(text).toContain('cook each pancake until golden');
    expect(text).not.toContain('Desserts');
  });
});

describe('main content: pruning rules', () => {
  const page = (inner: string) =>
    `<!doctype html><html><head><title>T</title></head><body><nav><a href="/">Home</a></nav><article>${inner}</article></body></html>`;

  it('cuts bylines, ad labels, "follow us" lines and the author box heading inside the text, not sentences', async () => {
    const text = (await extract(ARTICLE_AROUND)).outputs.text ?? '';
    expect(text).toContain('Closing paragraph 1');
    for (const cut of ['Jane Doe', 'Anzeige', 'Follow us', 'About the author']) expect(text).not.toContain(cut);
    expect(text).toContain('By the evening the first ferries had left');
  });

  it('cuts picture credits, sharing lines and comment counts inside the text, not sentences', async () => {
    const text = (await extract(POST_CREDITS)).outputs.text ?? '';
    expect(text).toContain('Home paragraph 2');
    for (const cut of ['Jane Doe', 'Getty Images', 'Mit Freunden teilen', 'Keine Kommentare'])
      expect(text).not.toContain(cut);
    expect(text).toContain('Photo albums of the walk');
  });

  it('cuts "read also" lines between the paragraphs, in any of the languages, but not a sentence that opens so', async () => {
    const text = (await extract(NEWS_READ_ALSO)).outputs.text ?? '';
    expect(text).toContain('Vote paragraph 2');
    expect(text).toContain('Outcome paragraph 2');
    expect(text).not.toContain('Mayor opens the new bridge');
    expect(text).not.toContain('El alcalde inaugura');
    expect(text).not.toContain('Mehr zum Thema');
    expect(text).toContain('Read also the minutes of the meeting');
  });

  it('cuts meta lines at the edges (a date, tags, share), never headings or sentences', async () => {
    const text =
      (await extract(page(`<h1>Title</h1><div>12.03.2024</div>${paras('Edge', 4)}<p>Tags: news</p><p>Share</p>`)))
        .outputs.text ?? '';
    expect(text.startsWith('Title\n\nEdge paragraph 1')).toBe(true);
    expect(
      text.endsWith(
        'Edge paragraph 4: it explains the matter in enough plain words, with commas, clauses and a full stop, to read as the body of the page.',
      ),
    ).toBe(true);
  });

  it('cuts boxes named as authors, post metadata, likes or a disclosure', async () => {
    const text =
      (
        await extract(
          page(
            `${paras('Named', 3)}<div class="full authors"><span>Mark Writer</span></div><div class="postmetadata">Filed on Tuesday</div><div class="likes-text">12 readers like this</div><section class="editorial-disclosure">Affiliate links ahead</section>${paras('Kept', 2)}`,
          ),
        )
      ).outputs.text ?? '';
    expect(text).toContain('Kept paragraph 2');
    for (const cut of ['Mark Writer', 'Filed on Tuesday', 'readers like this', 'Affiliate links'])
      expect(text).not.toContain(cut);
  });

  it('cuts paragraphs named as a newsletter box, a byline or a disclaimer, not other paragraphs', async () => {
    const text =
      (
        await extract(
          page(
            `${paras('Para', 3)}<p class="newsletter-teaser">Sign up for our letter</p><p class="byline">Jane Doe, Berlin</p><p class="lead">The lead stays.</p>${paras('End', 2)}`,
          ),
        )
      ).outputs.text ?? '';
    expect(text).toContain('End paragraph 2');
    expect(text).toContain('The lead stays.');
    for (const cut of ['Sign up for our letter', 'Jane Doe']) expect(text).not.toContain(cut);
  });

  it('cuts captions and photo credits', async () => {
    const text =
      (
        await extract(
          page(
            `${paras('Caption', 3)}<figure><img src="/a.jpg" alt=""><figcaption>Photo: Jane Doe</figcaption></figure><span class="credit">Image credit: Agency</span>${paras('More', 2)}`,
          ),
        )
      ).outputs.text ?? '';
    expect(text).toContain('More paragraph 2');
    expect(text).not.toContain('Jane Doe');
    expect(text).not.toContain('Agency');
  });

  it('cuts blocks made of links inside the content, and elements hidden by an inline style', async () => {
    const text =
      (
        await extract(
          page(
            `${paras('Links', 3)}<ul>${'<li><a href="/r">Read this other story</a></li>'.repeat(5)}</ul><div style="display: none">Hidden text</div>${paras('After', 1)}`,
          ),
        )
      ).outputs.text ?? '';
    expect(text).toContain('After paragraph 1');
    expect(text).not.toContain('Read this other story');
    expect(text).not.toContain('Hidden text');
  });

  it('finds the content of a page with two bodies (a server warning before <html>)', async () => {
    const html = `<b>Warning</b>: deprecated in /www/index.php<br>\n<html><head><title>T</title></head><body><body><div class="main">${paras('Twice', 3)}</div></body></html>`;
    const { outputs, source } = await extract(html);
    expect(source).toBe('detected');
    expect(outputs.text).toContain('Twice paragraph 3');
  });

  it('says when the content found is short, and keeps it when the page marks it as main', async () => {
    const html = `<!doctype html><html><body><nav>${'<a href="/x">x</a>'.repeat(40)}</nav><div role="main"><h1>Index</h1><p>A | B | C</p></div><div class="footer">${paras('Footer', 1)}</div></body></html>`;
    const { outputs, record } = await extract(html);
    expect(outputs.text).toBe('Index\n\nA | B | C');
    expect(record.warnings).toEqual([
      'content: the main content found has 14 characters; kept (the page marks it as main)',
    ]);
  });

  it("puts the page's title heading first only when the content has no h1 of its own (a site's name is not one)", async () => {
    const html = (inner: string) =>
      `<!doctype html><html><head><title>Install | Docs 3.2</title></head><body><header><h1>Docs 3.2</h1></header><div role="main">${inner}${paras('Title', 3)}</div></body></html>`;
    expect((await extract(html('<h1>Install</h1>'))).outputs.text?.startsWith('Install\n\nTitle paragraph 1')).toBe(
      true,
    );
    expect((await extract(html(''))).outputs.text?.startsWith('Docs 3.2\n\nTitle paragraph 1')).toBe(true);
  });

  it('keeps the words of a linked heading: link density judges blocks, never inline spans', async () => {
    const text =
      (
        await extract(
          page(`<h1><a href="#m"><code><span class="pre">argparse</span></code></a> — Parser</h1>${paras('Span', 3)}`),
        )
      ).outputs.text ?? '';
    expect(text.startsWith('argparse — Parser')).toBe(true);
  });

  it('returns the root it chose and how', () => {
    const document = parseDocument(SPHINX);
    const { root, pick } = findMain(document.body ?? document.documentElement);
    expect(pick).toBe('structure');
    expect(root.getAttribute('class')).toBe('body');
  });
});
