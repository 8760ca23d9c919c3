/**
 * The dashboard's Markdown parser (public/markdown.js): plain functions from text to a tree of plain objects, which
 * record.js renders as DOM built from text. Links only for http(s) and mailto.
 */
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../public/markdown.js';

const blocks = (md: string) => parseMarkdown(md).blocks;
const inline = (md: string) => {
  const [first] = blocks(md);
  if (first?.type !== 'paragraph') throw new Error(`not a paragraph: ${JSON.stringify(first)}`);
  return first.children;
};

describe('markdown parser', () => {
  it('parses inline markup inside link text, and keeps unsafe links as text', () => {
    expect(inline('See [**RFC** `7159`](https://example.com/rfc) now')).toEqual([
      { type: 'text', text: 'See ' },
      {
        type: 'link',
        href: 'https://example.com/rfc',
        children: [
          { type: 'strong', children: [{ type: 'text', text: 'RFC' }] },
          { type: 'text', text: ' ' },
          { type: 'code', text: '7159' },
        ],
      },
      { type: 'text', text: ' now' },
    ]);
    expect(inline('[click](javascript:alert(1)) [d](data:text/html,x)')).toEqual([
      { type: 'text', text: '[click](javascript:alert(1)) [d](data:text/html,x)' },
    ]);
    expect(inline('[[1]](https://a.test/#n1) and [\\[2\\]](https://a.test/#n2)')).toMatchObject([
      { type: 'link', children: [{ type: 'text', text: '[1]' }] },
      { type: 'text', text: ' and ' },
      { type: 'link', children: [{ type: 'text', text: '[2]' }] },
    ]);
  });

  it('parses autolinks, images, emphasis, escapes and hard breaks', () => {
    expect(inline('<https://a.test/x> ![a *cat*](https://a.test/c.png) _it_ *em* \\*no\\* a  \nb')).toEqual([
      { type: 'link', href: 'https://a.test/x', children: [{ type: 'text', text: 'https://a.test/x' }] },
      { type: 'text', text: ' ' },
      { type: 'image', alt: 'a *cat*', href: 'https://a.test/c.png' },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'it' }] },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'em' }] },
      { type: 'text', text: ' *no* a' },
      { type: 'br' },
      { type: 'text', text: 'b' },
    ]);
    expect(inline('snake_case_name and <script>alert(1)</script>')).toEqual([
      { type: 'text', text: 'snake_case_name and <script>alert(1)</script>' },
    ]);
  });

  it('numbers footnotes in order of reference and keeps their definitions', () => {
    const doc = parseMarkdown('One[^b] two[^a] three[^b] none[^x].\n\n[^a]: Alpha *note*.\n[^b]: Beta\n    continued.');
    expect(doc.blocks).toHaveLength(1);
    expect(doc.blocks[0]).toMatchObject({
      children: [
        { type: 'text', text: 'One' },
        { type: 'footref', id: 'b', n: 1 },
        { type: 'text', text: ' two' },
        { type: 'footref', id: 'a', n: 2 },
        { type: 'text', text: ' three' },
        { type: 'footref', id: 'b', n: 1 },
        { type: 'text', text: ' none[^x].' },
      ],
    });
    expect(doc.footnotes).toEqual([
      { id: 'b', n: 1, blocks: [{ type: 'paragraph', children: [{ type: 'text', text: 'Beta\ncontinued.' }] }] },
      {
        id: 'a',
        n: 2,
        blocks: [
          {
            type: 'paragraph',
            children: [
              { type: 'text', text: 'Alpha ' },
              { type: 'em', children: [{ type: 'text', text: 'note' }] },
              { type: 'text', text: '.' },
            ],
          },
        ],
      },
    ]);
  });

  it('parses GFM tables with alignment', () => {
    expect(blocks('| Name | Qty | Note |\n|:--|--:|:-:|\n| `a\\|b` | 2 |\n| c | 3 | x |')).toEqual([
      {
        type: 'table',
        align: ['left', 'right', 'center'],
        head: [[{ type: 'text', text: 'Name' }], [{ type: 'text', text: 'Qty' }], [{ type: 'text', text: 'Note' }]],
        rows: [
          [[{ type: 'code', text: 'a|b' }], [{ type: 'text', text: '2' }], []],
          [[{ type: 'text', text: 'c' }], [{ type: 'text', text: '3' }], [{ type: 'text', text: 'x' }]],
        ],
      },
    ]);
  });

  it('parses fenced and indented code, headings, rules and quotes', () => {
    expect(
      blocks(
        '# Title #\n\n```ts title\nconst a = 1;\n\n<b>x</b>\n```\n\n    indented\n      more\n\n---\n\n> quoted\nlazy\n> > nested',
      ),
    ).toEqual([
      { type: 'heading', level: 1, children: [{ type: 'text', text: 'Title' }] },
      { type: 'code', lang: 'ts', text: 'const a = 1;\n\n<b>x</b>' },
      { type: 'code', lang: '', text: 'indented\n  more' },
      { type: 'hr' },
      {
        type: 'quote',
        blocks: [
          { type: 'paragraph', children: [{ type: 'text', text: 'quoted\nlazy' }] },
          { type: 'quote', blocks: [{ type: 'paragraph', children: [{ type: 'text', text: 'nested' }] }] },
        ],
      },
    ]);
  });

  it('parses nested ordered and unordered lists', () => {
    const text = (t: string) => [{ type: 'paragraph', children: [{ type: 'text', text: t }] }];
    expect(blocks('- one\n  1. one.a\n  2. one.b\n     - deep\n- two\n\n3. three\n4. four')).toEqual([
      {
        type: 'list',
        ordered: false,
        start: 1,
        items: [
          [
            ...text('one'),
            {
              type: 'list',
              ordered: true,
              start: 1,
              items: [
                text('one.a'),
                [...text('one.b'), { type: 'list', ordered: false, start: 1, items: [text('deep')] }],
              ],
            },
          ],
          text('two'),
        ],
      },
      { type: 'list', ordered: true, start: 3, items: [text('three'), text('four')] },
    ]);
  });
});
