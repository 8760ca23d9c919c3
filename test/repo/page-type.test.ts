/** bench:extract's page types (scripts/lib/page-type.ts): each rule on a small page that says what it is. */
import { describe, expect, it } from 'vitest';
import { classifyPage } from '../../scripts/lib/page-type.ts';

const page = (head: string, body = '<p>Some text of the page.</p>') =>
  `<html><head>${head}</head><body>${body}</body></html>`;
const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
const prose = `<p>${'A sentence of the article, long enough to read. '.repeat(30)}</p>`;

describe('page types', () => {
  it('reads JSON-LD types: forum and product first, an article beside a product stays an article', () => {
    expect(classifyPage(page(ld({ '@type': 'QAPage' })), 'https://q.example/questions/1/x')).toEqual({
      type: 'forum',
      rule: 'types',
    });
    expect(classifyPage(page(ld({ '@graph': [{ '@type': 'Product' }] })), 'https://s.example/p/1').type).toBe(
      'product',
    );
    expect(
      classifyPage(page(ld([{ '@type': 'NewsArticle' }, { '@type': 'Product' }])), 'https://n.example/a').type,
    ).toBe('article');
    // An FAQ's entries are Questions: not a forum.
    const faq = ld({ '@type': 'FAQPage', mainEntity: [{ '@type': 'Question' }] });
    expect(classifyPage(page(faq), 'https://f.example/help/x').type).toBe('article');
  });

  it('takes a documentation generator over an article type, and forum software from its generator or marks', () => {
    const rtd = page(
      '<meta name="generator" content="Sphinx 7.2">',
      `<div itemscope itemtype="http://schema.org/Article">${prose}</div>`,
    );
    expect(classifyPage(rtd, 'https://docs.example/api.html')).toEqual({ type: 'docs', rule: 'generator' });
    expect(classifyPage(page('<meta name="generator" content="Discourse 3.1">'), 'https://d.example/t/1').type).toBe(
      'forum',
    );
    expect(classifyPage(page('', `<div id="phpbb">${prose}</div>`), 'https://b.example/x').type).toBe('forum');
  });

  it('sees a thread when its posts outweigh the article, not a blog with a few comments', () => {
    const posts = Array.from({ length: 6 }, () => `<div class="postbody">${prose}</div>`).join('');
    expect(classifyPage(page('', posts), 'https://b.example/x')).toEqual({ type: 'forum', rule: 'thread' });
    const comments = Array.from({ length: 4 }, () => '<div class="post-content">Nice!</div>').join('');
    expect(classifyPage(page('', `<article>${prose}</article>${comments}`), 'https://blog.example/a-b-c').type).toBe(
      'article',
    );
  });

  it('reads listings from the address and from many article links without prose', () => {
    expect(classifyPage(page(''), 'https://news.example/')).toEqual({ type: 'listing', rule: 'address' });
    expect(classifyPage(page(''), 'https://news.example/category/politics/').type).toBe('listing');
    expect(classifyPage(page(''), 'https://news.example/blog/page/2').type).toBe('listing');
    // WordPress' post id, and an article filed under an archive folder, are articles.
    expect(classifyPage(page(''), 'https://blog.example/?p=2895').type).toBe('article');
    expect(classifyPage(page(''), 'https://n.example/archiv/ein-langer-artikel-name.html').type).toBe('article');
    const teasers = Array.from(
      { length: 30 },
      (_, i) => `<h2><a href="/2024/05/story-number-${i}">Story ${i}</a></h2><p>A teaser.</p>`,
    );
    expect(classifyPage(page('', teasers.join('')), 'https://n.example/news')).toEqual({
      type: 'listing',
      rule: 'links',
    });
    expect(classifyPage(page('', teasers.join('') + prose), 'https://n.example/news').type).toBe('article');
  });

  it('falls back on og:type, then article', () => {
    expect(classifyPage(page('<meta property="og:type" content="product">'), 'https://s.example/x').type).toBe(
      'product',
    );
    expect(classifyPage(page('<meta property="og:type" content="article">'), 'https://x.example/')).toEqual({
      type: 'listing',
      rule: 'address',
    });
    expect(classifyPage(page(''), 'https://x.example/about-us')).toEqual({ type: 'article', rule: 'default' });
  });
});
