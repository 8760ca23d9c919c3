/**
 * Short lines that are the content's own (issue 44): "Label: value" facts at the end of a short product page, and a
 * list of links between the paragraphs of an article. The rules that cut meta lines at the content's edges
 * (main/edges.ts), the learned decision on its last blocks (main/blocks.ts) and the cut of blocks of links
 * (main/prune.ts) leave them, and still cut the meta lines, sharing and "read also" lists they were made for.
 */
import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import { factLine } from '../../src/domain/extract/main/edges';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';

const SPEC: ExtractSpec = { formats: ['markdown', 'text'], mainContent: true, include: [], exclude: [], fields: {} };
const extract = (html: string) =>
  extractPage(new TextEncoder().encode(html), 'text/html; charset=utf-8', 'https://shop.example/kettle', SPEC);

const NAV = '<nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/about">About</a></nav>';
const FOOTER = '<footer><p>© Shop 2024</p></footer>';
const page = (title: string, main: string) =>
  `<html><head><title>${title}</title></head><body>${NAV}<main><h1>${title}</h1>${main}</main>${FOOTER}</body></html>`;
const KETTLE =
  '<p>This enamel kettle holds 1.7 litres of water and works on gas, electric and induction hobs, with a whistle that tells you when it boils.</p>' +
  '<p>Its handle stays cool, and the lid comes off for cleaning. Made in Portugal by a family firm since 1952.</p>';
const paragraph = (i: number) =>
  `<p>Paragraph ${i} of the story tells what happened in plain words, with a clause or two, commas, and a full stop.</p>`;

describe('fact lines: "Label: value"', () => {
  it('reads a short label, a colon and a value as a fact, and the meta labels as meta', () => {
    for (const fact of ['Price: 10.50', 'Stock: 4', 'Country of origin: Portugal', 'Gewicht: 1,2 kg', 'Prix : 12 €'])
      expect(factLine(fact), fact).toBe(true);
    const metas = [
      'Tags: kitchen, tea',
      'Category: News',
      'Posted: 12.03.2021',
      'By: Jane Doe',
      'Stand: 07.11.2023',
      'Share',
    ];
    for (const meta of metas) expect(factLine(meta), meta).toBe(false);
    expect(factLine(`Note: ${'a long sentence that goes on '.repeat(5)}`)).toBe(false);
  });

  it('keeps the facts a short product page ends with, so a model asked for the price sees it', async () => {
    const { outputs } = await extract(page('Blue kettle', `${KETTLE}<p>Price: 10.50</p><p>Stock: 4</p>`));
    expect(outputs.text).toContain('Price: 10.50');
    expect(outputs.text).toContain('Stock: 4');
    expect(outputs.text).toContain('Made in Portugal');
    expect(outputs.text).not.toContain('© Shop');
  });

  it('keeps the facts before what follows them, and cuts that', async () => {
    const { outputs } = await extract(
      page('Blue kettle', `${KETTLE}<p>Price: 10.50</p><p>Stock: 4</p><p>Weight: 1.2 kg</p><p>Share</p><p>Tweet</p>`),
    );
    expect(outputs.text).toContain('Price: 10.50');
    expect(outputs.text).toContain('Weight: 1.2 kg');
    expect(outputs.text).not.toContain('Share');
    expect(outputs.text).not.toContain('Tweet');
  });

  it("still cuts an article's meta lines at its end: one label alone, or labels of the page's meta", async () => {
    const article = [1, 2, 3, 4].map(paragraph).join('');
    const { outputs } = await extract(page('The story', `${article}<p>Category: News</p><p>Tags: politics, city</p>`));
    expect(outputs.text).toContain('Paragraph 4 of the story');
    expect(outputs.text).not.toContain('Category: News');
    expect(outputs.text).not.toContain('Tags: politics');
  });
});

describe('a list of links inside the prose', () => {
  const SOURCES =
    '<ul><li><a href="https://a.example/one">The first report on the matter</a></li><li><a href="https://b.example/two">A second report</a></li>' +
    '<li><a href="https://c.example/three">The court’s ruling</a></li></ul>';

  it('keeps a list of links to other sites between two paragraphs of the text', async () => {
    const { outputs } = await extract(
      page(
        'The story',
        `${paragraph(1)}${paragraph(2)}<p>The sources we used were these:</p>${SOURCES}${paragraph(3)}`,
      ),
    );
    const markdown = outputs.markdown ?? '';
    expect(markdown).toContain('The sources we used were these:');
    expect(markdown).toContain('- [The first report on the matter](https://a.example/one)');
    expect(markdown).toContain('- [The court’s ruling](https://c.example/three)');
    expect(markdown).toContain('Paragraph 3 of the story');
  });

  it('cuts a list of the site\'s own pages or a "read also" list between paragraphs, and says so in the warnings', async () => {
    const teasers =
      '<ul><li><a href="/news/one">One virus, two Americas</a></li><li><a href="https://shop.example/news/two">Four out of five jobs affected</a></li></ul>';
    const own = await extract(
      page('The story', `${paragraph(1)}${paragraph(2)}<p>We wrote about it before:</p>${teasers}${paragraph(3)}`),
    );
    expect(own.outputs.text).toContain('Paragraph 3 of the story');
    expect(own.outputs.text).not.toContain('One virus');
    expect(own.record.warnings).toContain(
      'content: a list of 2 links between paragraphs was cut (its links lead to the site\'s own pages): "One virus, two Americas", "Four out of five jobs affected"',
    );
    const readAlso = await extract(
      page('The story', `${paragraph(1)}${paragraph(2)}<p>Read also:</p>${SOURCES}${paragraph(3)}`),
    );
    expect(readAlso.outputs.text).not.toContain('A second report');
    expect(readAlso.record.warnings.join('\n')).toContain(
      '(introduced as pointing elsewhere): "The first report on the matter"',
    );
  });

  it('still cuts a list of links after the text, without a warning: it is not inside it', async () => {
    const { outputs, record } = await extract(
      page('The story', `${paragraph(1)}${paragraph(2)}${paragraph(3)}${SOURCES}`),
    );
    expect(outputs.text).toContain('Paragraph 3 of the story');
    expect(outputs.text).not.toContain('A second report');
    expect(record.warnings).toEqual([]);
  });
});
