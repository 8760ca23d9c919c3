/**
 * The CLI's pure parts, in Node: where a page's markdown goes (paths from URLs, never outside the folder), the
 * progress line (bar, rate, ETA), and bounded concurrency. The CLI against a real edgecrawl: test/system/cli.test.ts.
 */
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownPath, PathClaims } from '../../cli/paths.ts';
import { mapLimit } from '../../cli/pool.ts';
import { bar, etaSeconds, formatDuration, progressLine } from '../../cli/progress.ts';

describe('markdownPath', () => {
  it('is <host>/<path>.md, index.md for a directory URL, .html dropped', () => {
    expect(markdownPath('https://example.com/')).toBe('example.com/index.md');
    expect(markdownPath('https://example.com')).toBe('example.com/index.md');
    expect(markdownPath('https://example.com/docs/')).toBe('example.com/docs/index.md');
    expect(markdownPath('https://example.com/docs/intro')).toBe('example.com/docs/intro.md');
    expect(markdownPath('https://example.com/docs/intro.html')).toBe('example.com/docs/intro.md');
    expect(markdownPath('http://127.0.0.1:8080/a/p2.htm')).toBe('127.0.0.1_8080/a/p2.md');
  });

  it('hashes the query string into the name, and ignores the fragment', () => {
    const a = markdownPath('https://example.com/search?q=one');
    const b = markdownPath('https://example.com/search?q=two');
    expect(a).toMatch(/^example\.com\/search-[0-9a-f]{8}\.md$/);
    expect(b).toMatch(/^example\.com\/search-[0-9a-f]{8}\.md$/);
    expect(a).not.toBe(b);
    expect(markdownPath('https://example.com/?page=2')).toMatch(/^example\.com\/index-[0-9a-f]{8}\.md$/);
    expect(markdownPath('https://example.com/a#part')).toBe('example.com/a.md');
  });

  it('keeps only safe characters, decoded, and cuts long segments', () => {
    expect(markdownPath('https://example.com/caf%C3%A9/a%20b.html')).toBe('example.com/caf_/a_b.md');
    expect(markdownPath('https://example.com/a:b*c?/x')).toMatch(/^example\.com\/a_b_c-[0-9a-f]{8}\.md$/);
    const long = markdownPath(`https://example.com/${'x'.repeat(300)}`);
    expect(long).toMatch(/^example\.com\/x{71}-[0-9a-f]{8}\.md$/);
  });

  it('never leaves the folder, whatever the path', () => {
    for (const url of [
      'https://example.com/%2e%2e/%2e%2e/etc/passwd',
      'https://example.com/..%2f..%2fetc/passwd',
      'https://example.com/.hidden/.env',
      'https://example.com/a%2F..%2F..%2Fb',
      'https://example.com/%5c..%5c..%5cwin',
    ]) {
      const path = markdownPath(url);
      expect(path, url).toMatch(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\.md$/);
      expect(posix.normalize(path).startsWith('example.com/'), url).toBe(true);
      expect(
        path.split('/').some((s) => s.startsWith('.')),
        url,
      ).toBe(false);
    }
  });

  it('gives a folder a name no page file can have', () => {
    expect(markdownPath('https://example.com/notes.md/x')).toBe('example.com/notes.md_/x.md');
    expect(markdownPath('https://example.com/notes')).toBe('example.com/notes.md');
  });
});

describe('PathClaims', () => {
  it('gives a second page on the same path a name of its own', () => {
    const claims = new PathClaims();
    expect(claims.claim('h/index.md')).toBe('h/index.md');
    expect(claims.claim('h/index.md')).toBe('h/index-2.md');
    expect(claims.claim('h/INDEX.md')).toBe('h/INDEX-3.md');
    expect(claims.claim('h/other.md')).toBe('h/other.md');
  });
});

describe('progress', () => {
  it('estimates the time left from the pending URLs and the rate', () => {
    expect(etaSeconds(0, 0)).toBe(0);
    expect(etaSeconds(100, 0)).toBeNull();
    expect(etaSeconds(100, 4)).toBe(25);
    expect(etaSeconds(10, 3)).toBe(4);
  });

  it('formats durations', () => {
    expect(formatDuration(null)).toBe('?');
    expect(formatDuration(7)).toBe('7s');
    expect(formatDuration(185)).toBe('3m05s');
    expect(formatDuration(7440)).toBe('2h04m');
  });

  it('fills the bar by the done fraction, within its width', () => {
    expect(bar(0, 4)).toBe('░░░░');
    expect(bar(0.5, 4)).toBe('██░░');
    expect(bar(1.7, 4)).toBe('████');
    expect(bar(Number.NaN, 4)).toBe('░░░░');
  });

  it('draws a running crawl with rate and ETA, an ended one with its status', () => {
    const counts = { discovered: 40, fetched: 12, stored: 10, failed: 2, skipped: 0 };
    expect(progressLine({ status: 'running', counts, pending: 28, pagesPerSecond: 4 }, 10)).toBe(
      '[███░░░░░░░] 12/40 · 10 stored · 2 failed · 28 pending · 4.0 pages/s · ETA 7s',
    );
    const ended = { discovered: 40, fetched: 35, stored: 33, failed: 2, skipped: 5 };
    expect(progressLine({ status: 'cancelled', counts: ended, pending: 0, pagesPerSecond: 0 }, 0)).toBe(
      '40/40 · 33 stored · 2 failed · 5 skipped · cancelled',
    );
    const stalled = { status: 'running', counts: { ...counts, discovered: 0 }, pending: 0, pagesPerSecond: 0 };
    expect(progressLine(stalled, 4)).toBe('[░░░░] 0/0 · 10 stored · 2 failed · 0 pending · 0.0 pages/s · ETA 0s');
  });
});

describe('mapLimit', () => {
  it('runs at most `limit` at once and keeps the order of the results', async () => {
    let running = 0;
    let most = 0;
    const results = await mapLimit([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n * 3));
      running--;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
  });
});
