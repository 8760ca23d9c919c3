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
});
