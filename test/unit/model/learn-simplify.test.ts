import { describe, expect, it } from 'vitest';
import { simplifyHtml } from '../../../src/domain/model/simplify-html';

const PAGE = `<!doctype html><html><head><title>Red  shoe</title><meta name="x" content="y"><style>p{}</style>
<script>var a = 1;</script></head><body>
<header class="top" style="color:red" onclick="x()"><nav><a href="/">Home</a></nav></header>
<!-- a comment -->
<div class="product" itemtype="https://schema.org/Product" data-sku="A1" aria-label="gone">
  <h1 itemprop="name"   class="title">Red
     shoe</h1>
  <svg><path d="M0 0"/></svg>
  <p class="desc">${'long '.repeat(100)}</p>
  <img src="/a.jpg" alt="gone" data-long="${'x'.repeat(200)}">
</div>
<footer>Footer</footer>
</body></html>`;

describe('simplifyHtml', () => {
  const out = simplifyHtml(PAGE);

  it('drops scripts, styles, svg, comments and the head but its title', () => {
    expect(out).not.toMatch(/script|<style|<svg|a comment|<meta/);
    expect(out.startsWith('<title>Red shoe</title>')).toBe(true);
  });

  it('keeps only the attributes selectors use, values cut', () => {
    expect(out).toContain('itemprop="name"');
    expect(out).toContain('class="title"');
    expect(out).toContain('data-sku="A1"');
    expect(out).toContain('src="/a.jpg"');
    expect(out).not.toMatch(/style=|onclick|aria-label|alt=/);
    expect(out).toContain(`data-long="${'x'.repeat(80)}"`);
    expect(out).not.toContain('x'.repeat(81));
  });

  it('collapses whitespace, cuts long text and puts the main content first', () => {
    expect(out).toContain('>Red shoe</h1>');
    expect(out).not.toContain('long '.repeat(41));
    expect(out.indexOf('class="product"')).toBeLessThan(out.indexOf('<header'));
    expect(out).toContain('Footer');
  });

  it('keeps to its budget, ending on a whole tag', () => {
    const small = simplifyHtml(PAGE, 120);
    expect(small.length).toBeLessThanOrEqual(121);
    expect(small.endsWith('>…')).toBe(true);
  });
});
