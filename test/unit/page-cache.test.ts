import { describe, expect, it } from 'vitest';
import { cachedBodyUse, freshSince } from '../../src/domain/crawl/page-cache';

describe('cachedBodyUse', () => {
  const plain = { rendered: false, hasFetched: false };
  const rendered = { rendered: true, hasFetched: true };
  const renderedAlone = { rendered: true, hasFetched: false };

  it('gives a request that never renders an unrendered copy, or a rendered one as it was fetched', () => {
    const never = { render: 'never' as const, wantsBrowser: false };
    expect(cachedBodyUse(never, plain)).toBe('body');
    expect(cachedBodyUse(never, rendered)).toBe('fetched');
    expect(cachedBodyUse(never, renderedAlone)).toBeNull();
  });

  it('gives a request that always renders only a rendered copy', () => {
    const always = { render: 'always' as const, wantsBrowser: false };
    expect(cachedBodyUse(always, plain)).toBeNull();
    expect(cachedBodyUse(always, rendered)).toBe('body');
  });

  it('gives an auto request a rendered copy, or an unrendered one to check for a need to render', () => {
    const auto = { render: 'auto' as const, wantsBrowser: false };
    expect(cachedBodyUse(auto, rendered)).toBe('body');
    expect(cachedBodyUse(auto, plain)).toBe('check');
  });

  it('never serves a request that wants a browser of its own (actions, a screenshot)', () => {
    for (const render of ['auto', 'always', 'never'] as const)
      for (const stored of [plain, rendered]) expect(cachedBodyUse({ render, wantsBrowser: true }, stored)).toBeNull();
  });
});

describe('freshSince', () => {
  it('is maxAge seconds before now, in epoch ms', () => {
    expect(freshSince(1_000_000, 300)).toBe(700_000);
    expect(freshSince(1_000_000, 0)).toBe(1_000_000);
  });
});
