import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';
import {
  CONTENT_WORDS,
  type RenderNeed,
  type RenderReason,
  renderNeed,
  shellFacts,
} from '../../src/domain/render/need';
import manifest from '../fixtures/render/manifest.json';

/** The fixtures: pages modelled on what frameworks and CMSs emit, each labelled in manifest.json. */
const pages = import.meta.glob<string>('../fixtures/render/*.html', { query: '?raw', import: 'default', eager: true });
const htmlOf = (file: string) => pages[`../fixtures/render/${file}`] ?? '';
const expected = (entry: (typeof manifest)[number]): RenderNeed =>
  entry.render && entry.reason ? { render: true, reason: entry.reason as RenderReason } : { render: false };

const SPEC: ExtractSpec = { formats: ['text'], mainContent: true, include: [], exclude: [], fields: {} };

describe('renderNeed on the fixtures', () => {
  it('has every fixture labelled, once', () => {
    const labelled = manifest.map((entry) => `../fixtures/render/${entry.file}`).sort();
    expect(labelled).toEqual(Object.keys(pages).sort());
    expect(manifest.length).toBeGreaterThanOrEqual(20);
  });

  it.each(manifest)('$file: render $render $reason', (entry) => {
    expect(renderNeed({ html: htmlOf(entry.file) })).toEqual(expected(entry));
  });

  it.each(manifest)('$file: the same after extraction, with its word count', async (entry) => {
    const html = htmlOf(entry.file);
    const { record } = await extractPage(new TextEncoder().encode(html), 'text/html', 'https://example.com/', SPEC);
    // A page whose text extraction finds anyway (an app shell's <noscript>) needs no browser once extracted.
    const after = 'afterExtraction' in entry ? { render: false } : expected(entry);
    expect(renderNeed({ html, contentWords: record.wordCount })).toEqual(after);
  });
});

const shell = (body: string, head = '<script src="/app.js"></script>') =>
  `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;
const prose = '<p>A paragraph of real text that a server rendered, long enough to read as content on its own.</p>';

describe('renderNeed', () => {
  it('trusts a main content of CONTENT_WORDS words without reading the HTML', () => {
    expect(renderNeed({ html: shell('<div id="root"></div>'), contentWords: CONTENT_WORDS })).toEqual({
      render: false,
    });
    expect(renderNeed({ html: shell('<div id="root"></div>'), contentWords: CONTENT_WORDS - 1 })).toEqual({
      render: true,
      reason: 'empty-app-root',
    });
  });

  it('never renders a page that runs no script', () => {
    expect(renderNeed({ html: shell('<div id="root"></div><noscript>Enable JavaScript</noscript>', '') })).toEqual({
      render: false,
    });
    // JSON and JSON-LD are not run.
    const data = '<script type="application/json">{"a":1}</script><script type="application/ld+json">{}</script>';
    expect(renderNeed({ html: shell('<div id="app"></div>', data) })).toEqual({ render: false });
  });

  it('does not render a page with text, whatever its signals', () => {
    const signals = '<noscript>Please enable JavaScript.</noscript><div id="app"></div>';
    expect(renderNeed({ html: shell(`${signals}${prose}${prose}${prose}`) })).toEqual({ render: false });
  });

  it('reads a noscript by its words, not its styles, images or iframes', () => {
    const style = '<noscript><style>.javascript-only{display:none}</style></noscript>';
    const pixel = '<noscript><img src="https://px.example/?js=0&noscript=1" alt=""></noscript>';
    for (const noscript of [style, pixel]) expect(shellFacts(shell(noscript)).noscriptAsksForJs).toBe(false);
    for (const words of ['Activez JavaScript', 'JS is required', 'JavaScriptを有効にしてください'])
      expect(renderNeed({ html: shell(`<noscript>${words}</noscript>`) })).toEqual({
        render: true,
        reason: 'noscript-requires-js',
      });
  });

  it('renders a bare body only when it shows nothing, or a loading message', () => {
    expect(renderNeed({ html: shell('') })).toEqual({ render: true, reason: 'script-built-content' });
    expect(renderNeed({ html: shell('<div class="splash">Chargement…</div>') })).toEqual({
      render: true,
      reason: 'script-built-content',
    });
    expect(renderNeed({ html: shell('<div>Back soon.</div>') })).toEqual({ render: false });
  });

  it('counts a declarative shadow root as shown, and other templates as material for scripts', () => {
    const template = (attributes: string) =>
      shell(`<x-page><template ${attributes}>${prose.repeat(12)}</template></x-page>`);
    expect(renderNeed({ html: template('shadowrootmode="open"') })).toEqual({ render: false });
    expect(renderNeed({ html: template('id="page"') })).toEqual({ render: true, reason: 'script-built-content' });
  });

  it('ends a script or a comment where a browser does', () => {
    // `</script` followed by a line break still closes the script: the text after it is shown.
    const html = shell(`<script src="/a.js"></script\n>${prose}${prose}${prose}<div id="app"></div>`);
    expect(shellFacts(html).visibleChars).toBeGreaterThan(200);
    expect(renderNeed({ html })).toEqual({ render: false });
  });
});
