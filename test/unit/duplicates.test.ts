import { describe, expect, it } from 'vitest';
import {
  type CanonicalState,
  canonicalTarget,
  canonicalVerdict,
  contentKey,
  contentVerdict,
  type DedupeCandidate,
  MAX_CANONICAL_HOPS,
} from '../../src/domain/crawl/duplicates';

const P = 'https://shop.test/p/1.html';
const C = 'https://shop.test/p/1.html?ref=canonical';
const all = () => true;

const candidate = (over: Partial<DedupeCandidate> = {}): DedupeCandidate => ({
  url: P,
  canonical: C,
  key: 'h1',
  unchanged: false,
  ...over,
});

describe('canonicalTarget', () => {
  it('is the canonical when it names another URL the crawl would fetch', () => {
    expect(canonicalTarget(P, C, 0, all)).toBe(C);
  });

  it('is null for none, the page itself, a canonical out of scope, or past the hops', () => {
    expect(canonicalTarget(P, null, 0, all)).toBeNull();
    expect(canonicalTarget(P, undefined, 0, all)).toBeNull();
    expect(canonicalTarget(P, P, 0, all)).toBeNull();
    expect(canonicalTarget(P, 'https://elsewhere.test/', 0, (url) => url.startsWith('https://shop.test/'))).toBeNull();
    expect(canonicalTarget(P, C, MAX_CANONICAL_HOPS - 1, all)).toBe(C);
    expect(canonicalTarget(P, C, MAX_CANONICAL_HOPS, all)).toBeNull();
  });
});

describe('contentKey', () => {
  const page = { contentHash: 'abc', wordCount: 12, title: 'Mug', heading: 'Blue mug' };

  it('is one key for pages of the same content hash, title and heading', async () => {
    expect(await contentKey(page)).toBe(await contentKey({ ...page }));
    expect(await contentKey({ contentHash: 'abc' })).toBe(await contentKey({ contentHash: 'abc', wordCount: null }));
  });

  it('differs when the content hash, the title or the heading does (one missing is not one empty)', async () => {
    const key = await contentKey(page);
    for (const other of [
      { contentHash: 'abd' },
      { title: 'Mug | Shop' },
      { heading: 'Red mug' },
      { title: null },
      { heading: null },
      { title: '' },
      { title: 'Mug\nBlue mug', heading: null },
    ])
      expect(await contentKey({ ...page, ...other }), JSON.stringify(other)).not.toBe(key);
  });

  it('is null for no hash, or an extraction that found no words', async () => {
    expect(await contentKey({ ...page, wordCount: 0 })).toBeNull();
    expect(await contentKey({ ...page, contentHash: null })).toBeNull();
    expect(await contentKey({})).toBeNull();
  });
});

describe('canonicalVerdict', () => {
  it('makes the page a duplicate of a canonical not seen, queued or stored', () => {
    for (const state of ['unseen', 'queued', 'stored'] satisfies CanonicalState[])
      expect(canonicalVerdict(candidate(), state), state).toEqual({ duplicate: true, of: C, reason: 'canonical' });
  });

  it('keeps the page when its canonical ended without content or is a duplicate itself', () => {
    for (const state of ['failed', 'skipped', 'duplicate'] satisfies CanonicalState[])
      expect(canonicalVerdict(candidate(), state), state).toEqual({ duplicate: false });
  });

  it('keeps a page without a canonical, and a 304 of a recrawl', () => {
    expect(canonicalVerdict(candidate({ canonical: null }), 'stored')).toEqual({ duplicate: false });
    expect(canonicalVerdict(candidate({ unchanged: true }), 'stored')).toEqual({ duplicate: false });
  });
});

describe('contentVerdict', () => {
  it('makes the page a duplicate of the other URL that had its key first', () => {
    expect(contentVerdict(candidate(), 'https://shop.test/print/1.html')).toEqual({
      duplicate: true,
      of: 'https://shop.test/print/1.html',
      reason: 'content',
    });
  });

  it('keeps the first URL itself (a redelivery too), a page without a key, and a 304', () => {
    expect(contentVerdict(candidate(), P)).toEqual({ duplicate: false });
    expect(contentVerdict(candidate(), null)).toEqual({ duplicate: false });
    expect(contentVerdict(candidate({ key: null }), 'https://shop.test/x')).toEqual({ duplicate: false });
    expect(contentVerdict(candidate({ unchanged: true }), 'https://shop.test/x')).toEqual({ duplicate: false });
  });
});
