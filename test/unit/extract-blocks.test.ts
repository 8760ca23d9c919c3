import { describe, expect, it } from 'vitest';
import { bodyOf, collapse, parseBounded } from '../../src/domain/extract/dom';
import { BLOCK_MODEL, type BlockModel, FEATURES, loadModel, NO_MODEL } from '../../src/domain/extract/main/block-model';
import { blocksOf, dropBoilerplate } from '../../src/domain/extract/main/blocks';

const sentence = (i: number) =>
  `Paragraph ${i} of the story tells what happened in plain words, with a clause or two, commas, and a full stop.`;
const bodyFrom = (html: string) => bodyOf(parseBounded(`<html><body>${html}</body></html>`, []).document);
const texts = (html: string, model: BlockModel) => {
  const body = bodyFrom(html);
  dropBoilerplate(body, model);
  return blocksOf(body).map((b) => b.text);
};

/** A model that reads every block whose text is shorter than 60 characters as boilerplate, and nothing else. */
const SHORT_IS_BOILER: BlockModel = {
  bias: 0,
  // Only the first feature (log characters) counts: odds over 0.5 below e^4.1 (about 60) characters.
  weights: FEATURES.map((_, f) => (f === 0 ? -10 : 0)),
  mean: FEATURES.map((_, f) => (f === 0 ? 4.1 : 0)),
  scale: FEATURES.map(() => 1),
  threshold: 0.5,
};

describe('the learned decision on blocks', () => {
  it('removes what the model reads as boilerplate wherever it is, never code, every block or a short content', () => {
    const html = `<p>Home</p><p>12.03.2021</p><p>${sentence(1)}</p><p>A short line inside.</p><p>${sentence(2)}</p>
      <p>Share</p><p>Tweet</p>`;
    expect(texts(html, SHORT_IS_BOILER)).toEqual([sentence(1), sentence(2)]);
    const code = `<p>${sentence(1)}</p><p>${sentence(2)}</p><div><pre>x = 1</pre></div><div><div class="fragment"><div class="line">y</div></div></div>`;
    expect(texts(code, SHORT_IS_BOILER)).toEqual([sentence(1), sentence(2), 'x = 1', 'y']);
    expect(texts('<p>Only</p><p>short</p><p>lines</p>', SHORT_IS_BOILER)).toEqual(['Only', 'short', 'lines']);
    // Nothing is removed when what is left would be too short to be a content.
    const thin = `<p>Menu</p><p>${sentence(1)}</p><p>Share</p><p>Tweet</p>`;
    expect(texts(thin, SHORT_IS_BOILER)).toEqual(['Menu', sentence(1), 'Share', 'Tweet']);
  });

  it('loads the fitted model from its JSON, and no model from one fit on other features', () => {
    expect(BLOCK_MODEL).not.toBe(NO_MODEL);
    expect(BLOCK_MODEL.weights).toHaveLength(FEATURES.length);
    expect(BLOCK_MODEL.threshold).toBeGreaterThan(0);
    expect(BLOCK_MODEL.threshold).toBeLessThan(1);
    const stored = { ...BLOCK_MODEL, fit: 'test', features: [...FEATURES] };
    expect(loadModel(stored)).toEqual(BLOCK_MODEL);
    expect(loadModel({ ...stored, features: FEATURES.slice(1) })).toBe(NO_MODEL);
    expect(loadModel({ ...stored, features: [...FEATURES].reverse() })).toBe(NO_MODEL);
    expect(loadModel({ ...stored, weights: BLOCK_MODEL.weights.slice(1) })).toBe(NO_MODEL);
  });

  it('the fitted model cuts a line of related links and a sharing line between paragraphs, and keeps the prose', () => {
    const paragraphs = (from: number) => [0, 1, 2].map((i) => `<p>${sentence(from + i)}</p>`).join('');
    const related =
      '<div>Related articles: <a href="/a">Ten things we learned this week</a> | <a href="/b">The mayor answers</a></div>';
    const share = '<div><a href="/share/fb">Share on Facebook</a> <a href="/share/x">Share on X</a></div>';
    const html = `<h1>The story</h1>${paragraphs(1)}${related}${paragraphs(4)}${share}${paragraphs(7)}`;
    const kept = collapse(texts(html, BLOCK_MODEL).join(' '));
    for (const i of [1, 2, 3, 4, 5, 6, 7, 8, 9]) expect(kept).toContain(sentence(i));
    for (const boiler of ['Ten things we learned', 'The mayor answers', 'Share on Facebook'])
      expect(kept).not.toContain(boiler);
  });

  it('the fitted model cuts a date line, sharing links and a newsletter prompt after an article, and keeps the article', () => {
    const article = [1, 2, 3, 4, 5, 6].map((i) => `<p>${sentence(i)}</p>`).join('');
    const tail =
      '<div>Veröffentlicht am 12.03.2021, 10:15 Uhr</div><div><a href="/fb">Facebook</a> | <a href="/tw">Twitter</a> | <a href="/mail">E-Mail</a></div>' +
      '<div><a href="/newsletter">Jetzt den Newsletter abonnieren</a></div>';
    const kept = collapse(texts(`<h1>The story</h1>${article}${tail}`, BLOCK_MODEL).join(' '));
    for (const i of [1, 2, 3, 4, 5, 6]) expect(kept).toContain(sentence(i));
    for (const boiler of ['Facebook', 'Newsletter abonnieren']) expect(kept).not.toContain(boiler);
  });
});
