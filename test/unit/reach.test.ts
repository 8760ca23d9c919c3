import { describe, expect, it } from 'vitest';
import { OUTCOME_CODES, type OutcomeCode } from '../../src/domain/crawl/outcome-codes';
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
  it('counts an answer of the site as read, and no answer as links unread, by outcome code alone', () => {
    const answers: OutcomeCode[] = [
      'http_4xx',
      'auth_required',
      'redirect',
      'redirect_out_of_scope',
      'robots_disallowed',
      'private_address',
      'soft_404',
    ];
    for (const code of answers) expect(leavesLinksUnread(code), code).toBe(false);
    // Every other code (408 and 429 ask to come back later; credentials refused kept back a page; a trap rule or a
    // cancel never read it) may hide links; so does a URL with no code.
    for (const code of OUTCOME_CODES.filter((c) => !answers.includes(c)))
      expect(leavesLinksUnread(code), code).toBe(true);
    expect(leavesLinksUnread(null)).toBe(true);
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
