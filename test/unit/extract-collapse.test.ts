import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';

const SPEC: ExtractSpec = { formats: ['text'], mainContent: true, include: [], exclude: [], fields: {} };
const textOf = async (html: string) =>
  (await extractPage(new TextEncoder().encode(html), 'text/html; charset=utf-8', 'https://example.com/page', SPEC))
    .outputs.text ?? '';

/** A sentence of prose, numbered so that each block's can be found. */
const sentence = (what: string, n: number) =>
  `${what} ${n} says something worth reading about the subject, in a sentence long enough to be prose, and then some more words.`;

const page = (body: string) =>
  `<!doctype html><html><head><title>A page</title></head><body><nav><a href="/">Home</a> <a href="/a">About</a></nav>${body}<footer><p>Copyright 2025, a company</p></footer></body></html>`;

describe('main content: no collapse', () => {
  it("a page builder's blocks named as widgets are the content: each of them is kept, not only the heart's", async () => {
    const widget = (n: number, words = 1) =>
      `<div class="elementor-element elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container"><p>${Array.from({ length: words }, (_, i) => sentence(`Builder paragraph ${n}.${i}`, n)).join(' ')}</p></div></div>`;
    const blocks = [widget(0, 3), ...Array.from({ length: 12 }, (_, n) => widget(n + 1))].join('');
    const text = await textOf(page(`<main><div class="entry-content">${blocks}</div></main>`));
    for (let n = 0; n <= 12; n++) expect(text).toContain(`Builder paragraph ${n}.0`);
    expect(text).not.toContain('Copyright');
  });

  it('a streamed page: the content a script moves out of a hidden element is read when the body shows nothing else', async () => {
    const article = Array.from({ length: 6 }, (_, n) => `<p>${sentence('Streamed paragraph', n)}</p>`).join('');
    const html = `<!doctype html><html><head><title>Streamed</title></head><body><div hidden=""></div><template id="B:0"></template><div hidden id="S:0"><main><h1>Streamed</h1>${article}</main></div><script>$RC("B:0","S:0")</script></body></html>`;
    const text = await textOf(html);
    for (let n = 0; n < 6; n++) expect(text).toContain(`Streamed paragraph ${n}`);
  });

  it('a hidden element stays out where the body shows its own content', async () => {
    const article = Array.from({ length: 6 }, (_, n) => `<p>${sentence('Shown paragraph', n)}</p>`).join('');
    const text = await textOf(page(`<main>${article}</main><div hidden><p>${sentence('Hidden text', 1)}</p></div>`));
    expect(text).toContain('Shown paragraph 5');
    expect(text).not.toContain('Hidden text');
  });

  it('an article printed after </body></html> by a broken template is read, as a browser shows it', async () => {
    const article = Array.from({ length: 6 }, (_, n) => `<p>${sentence('Late paragraph', n)}</p>`).join('');
    const html = `<!doctype html><html><head><title>Late</title></head><body><header><nav><a href="/">Home</a></nav></header></body></html><div class="post"><h1>Late</h1>${article}</div>`;
    const text = await textOf(html);
    for (let n = 0; n < 6; n++) expect(text).toContain(`Late paragraph ${n}`);
  });

  it("Adobe's core components (cmp-text) are content, a consent platform's long dialog is not", async () => {
    const blocks = Array.from(
      { length: 6 },
      (_, n) => `<div class="cmp-text"><p>${sentence('Component paragraph', n)}</p></div>`,
    ).join('');
    const consent = Array.from({ length: 20 }, (_, n) => `<p>${sentence('Consent purpose', n)}</p>`).join('');
    const text = await textOf(
      page(
        `<div class="cmp-container">${blocks}</div><div id="onetrust-consent-sdk"><div id="onetrust-pc-sdk">${consent}</div></div>`,
      ),
    );
    for (let n = 0; n < 6; n++) expect(text).toContain(`Component paragraph ${n}`);
    expect(text).not.toContain('Consent purpose');
  });

  it("a forum's thread that says so (DiscussionForumPosting): its posts are the content, not a popover beside them", async () => {
    const posts = Array.from(
      { length: 8 },
      (_, n) =>
        `<article class="cPost ipsComment"><aside class="author"><a href="/u/${n}">User ${n}</a></aside><div id="comment-${n}_wrap" class="ipsComment_content"><div class="cPost_contentWrap"><p>${sentence('Forum post', n)} ${sentence('It goes on', n)}</p></div></div></article>`,
    ).join('');
    const ld = '<script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"A topic"}</script>';
    const header = `<header>${Array.from({ length: 20 }, (_, n) => `<a href="/f/${n}">Forum section ${n}</a>`).join(' ')}</header>`;
    const popover = `<div class="popover"><p>${sentence('Install our app', 1)}</p></div>`;
    const html = page(`${header}${popover}<main><h1>A topic</h1><div class="posts">${posts}</div></main>`).replace(
      '</head>',
      `${ld}</head>`,
    );
    const text = await textOf(html);
    for (let n = 0; n < 8; n++) expect(text).toContain(`Forum post ${n}`);
    for (const furniture of ['Install our app', 'Forum section']) expect(text).not.toContain(furniture);
  });

  it('a thread that does not say so (a short post, its comments many small blocks) is read as a thread', async () => {
    const comments = Array.from(
      { length: 30 },
      (_, n) =>
        `<tr class="athing comtr"><td class="default"><div class="comhead"><a href="/user?id=u${n}">u${n}</a></div><div class="comment"><div class="commtext">${sentence('Comment', n)}</div><div class="reply"><a href="/reply?id=${n}">reply</a></div></div></td></tr>`,
    ).join('');
    const post = `<div class="toptext">${sentence('The post asks', 0)} ${sentence('The post asks', 1)}</div>`;
    const html = page(
      `<table id="main"><tr><td><table class="fatitem"><tr><td><a href="https://example.org">A story</a></td></tr><tr><td>${post}</td></tr></table><table class="comment-tree">${comments}</table></td></tr></table>`,
    );
    const text = await textOf(html);
    expect(text).toContain('The post asks 1');
    for (let n = 0; n < 30; n++) expect(text).toContain(`Comment ${n} says`);
    expect(text).not.toContain('Copyright');
  });

  it("an article's comments stay out, however long they are", async () => {
    const article = Array.from({ length: 5 }, (_, n) => `<p>${sentence('Article paragraph', n)}</p>`).join('');
    const comments = Array.from(
      { length: 40 },
      (_, n) => `<li class="comment"><p>${sentence('Reader comment', n)}</p></li>`,
    ).join('');
    const text = await textOf(
      page(
        `<main><article><h1>News</h1>${article}</article><section id="comments"><ol class="comment-list">${comments}</ol></section></main>`,
      ),
    );
    for (let n = 0; n < 5; n++) expect(text).toContain(`Article paragraph ${n}`);
    expect(text).not.toContain('Reader comment');
  });

  it('a form holding mostly prose wraps content (posts in a moderation form); a search form is still cut', async () => {
    const posts = Array.from(
      { length: 8 },
      (_, n) => `<article class="post"><p>${sentence('Posted reply', n)} ${sentence('More of it', n)}</p></article>`,
    ).join('');
    const ld = '<script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"A topic"}</script>';
    const search =
      '<form action="/search"><label>Search the forum for answers</label><input name="q"><button>Go</button></form>';
    // A dialog's paragraph of many commas scores above each post: the first pick is it, a second opinion decides.
    const dialog =
      '<div class="dialog"><p>Sign in, or register, to reply, to follow, to vote, to save, to share, to report, to quote, or to like posts, here.</p></div>';
    const html = page(
      `${dialog}<div id="comments"><form action="/moderate" method="post">${posts}</form>${search}</div>`,
    ).replace('</head>', `${ld}</head>`);
    const text = await textOf(html);
    for (let n = 0; n < 8; n++) expect(text).toContain(`Posted reply ${n}`);
    for (const furniture of ['Search the forum', 'Sign in, or register']) expect(text).not.toContain(furniture);
  });
});
