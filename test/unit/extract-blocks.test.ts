import { describe, expect, it } from 'vitest';
import { bodyOf, collapse, parseBounded } from '../../src/domain/extract/dom';
import { BLOCK_MODEL, type BlockModel, FEATURES } from '../../src/domain/extract/main/block-model';
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
  it("removes the run of boilerplate at the content's end, never at its start or inside it, never code or every block", () => {
    const html = `<p>Home</p><p>12.03.2021</p><p>${sentence(1)}</p><p>A short line inside.</p><p>${sentence(2)}</p>
      <p>Share</p><p>Tweet</p>`;
    expect(texts(html, SHORT_IS_BOILER)).toEqual([
      'Home',
      '12.03.2021',
      sentence(1),
      'A short line inside.',
      sentence(2),
    ]);
    const code = `<p>${sentence(1)}</p><p>${sentence(2)}</p><div><pre>x = 1</pre></div><div><div class="fragment"><div class="line">y</div></div></div>`;
    expect(texts(code, SHORT_IS_BOILER)).toEqual([sentence(1), sentence(2), 'x = 1', 'y']);
    expect(texts('<p>Only</p><p>short</p><p>lines</p>', SHORT_IS_BOILER)).toEqual(['Only', 'short', 'lines']);
  });

  it('a long paragraph ending a sentence, a heading or a list stops the run, whatever the odds', () => {
    const long = `${sentence(7)} ${sentence(8)} ${sentence(9)}`;
    const model = { ...SHORT_IS_BOILER, weights: FEATURES.map(() => 0), bias: 10 };
    const html = `<p>Menu</p><p>${long}</p><p>${sentence(1)}</p><p>${long}</p><div>${sentence(2)}</div><p>Share</p>`;
    expect(texts(html, model)).toEqual(['Menu', long, sentence(1), long]);
    // A sentence that goes on from the prose before it, in the same element, is the article's own last line.
    const last = `<p>Menu</p><p>${sentence(1)}</p><p>${sentence(2)}</p><p>The end.</p><div>Share</div>`;
    expect(texts(last, model)).toEqual(['Menu', sentence(1), sentence(2), 'The end.']);
    // A heading and a list stop it too.
    const lead = `<p>Menu</p><p>${long}</p>`;
    expect(texts(`${lead}<h2>Notes</h2><p>Share</p>`, model)).toEqual(['Menu', long, 'Notes']);
    expect(texts(`${lead}<ul><li>a</li></ul><p>Share</p>`, model)).toEqual(['Menu', long, 'a']);
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
