import { describe, expect, it } from 'vitest';
import {
  compareReaches,
  leavesLinksUnread,
  type ReachRules,
  reachesAsFar,
  reachOf,
} from '../../src/domain/crawl/reach';

const rules = (over: Partial<ReachRules> = {}): ReachRules => ({
  seeds: ['https://e.com/'],
  scope: 'same-host',
  include: [],
  exclude: [],
  maxDepth: null,
  sitemaps: false,
  ...over,
});

describe('a crawl reach', () => {
  it('counts an answer of the site as read, and no answer as links unread', () => {
    for (const answered of [
      'http 404',
      'http 410',
      'http 403',
      'redirect 301 to https://e.com/b',
      'redirect 302 to https://x.com/, out of scope',
      'blocked by robots.txt',
      'blocked: private network address',
    ])
      expect(leavesLinksUnread(answered), answered).toBe(false);
    for (const unread of [
      'http 500',
      'http 503',
      'http 429',
      'http 408',
      'timeout after 15000 ms',
      'dns: host not found (x.invalid)',
      'cancelled',
      'dead-lettered: retries exhausted',
      'too many redirects (more than 5)',
      'redirect to a non-http(s) URL: mailto:a@b',
      'render: browser crashed',
      'body larger than 10485760 bytes',
      null,
    ])
      expect(leavesLinksUnread(unread), String(unread)).toBe(true);
    // The head alone says as much as the whole reason.
    expect(leavesLinksUnread('redirect 301 to https://e.com/b'.slice(0, 16))).toBe(false);
    expect(leavesLinksUnread('blocked by robots.txt'.slice(0, 16))).toBe(false);
  });

  it('reaches as far with the same rules or wider ones, not narrower', () => {
    expect(reachesAsFar(rules(), rules())).toBe(true);
    expect(reachesAsFar(rules({ maxDepth: 3 }), rules({ maxDepth: 2 }))).toBe(true);
    expect(reachesAsFar(rules({ maxDepth: 2 }), rules({ maxDepth: 3 }))).toBe(false);
    expect(reachesAsFar(rules({ maxDepth: 2 }), rules())).toBe(false);
    expect(reachesAsFar(rules({ sitemaps: true }), rules())).toBe(true);
    expect(reachesAsFar(rules(), rules({ sitemaps: true }))).toBe(false);
    expect(reachesAsFar(rules({ exclude: ['**/*.pdf'] }), rules())).toBe(false);
    expect(reachesAsFar(rules({ seeds: ['https://e.com/', 'https://e.com/b'] }), rules())).toBe(true);
    expect(reachesAsFar(rules(), rules({ scope: 'same-domain' }))).toBe(false);
  });

  it('lets a recrawl call a page gone or new by absence only when the other crawl reached all it found', () => {
    const whole = { reach: reachOf([]), rules: rules() };
    const capped = { reach: reachOf(['maxPages']), rules: rules() };
    const running = { reach: reachOf(['running']), rules: rules() };
    expect(compareReaches(whole, whole)).toEqual({ unlinkedGone: true, unseenNew: true, provisional: false });
    expect(compareReaches(capped, whole)).toEqual({ unlinkedGone: false, unseenNew: true, provisional: false });
    expect(compareReaches(whole, capped)).toEqual({ unlinkedGone: true, unseenNew: false, provisional: false });
    expect(compareReaches(running, whole)).toEqual({ unlinkedGone: false, unseenNew: true, provisional: true });
    expect(compareReaches(whole, null)).toEqual({ unlinkedGone: false, unseenNew: true, provisional: false });
    // Narrower rules now: a page they leave out is not gone by absence; the wider crawl before saw all they can.
    const shallow = { reach: reachOf([]), rules: rules({ maxDepth: 5 }) };
    expect(compareReaches(shallow, whole)).toMatchObject({ unlinkedGone: false, unseenNew: true });
    expect(compareReaches(whole, shallow)).toMatchObject({ unlinkedGone: true, unseenNew: false });
  });
});
