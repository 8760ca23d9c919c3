import { describe, expect, it } from 'vitest';
import {
  emptyPool,
  grant,
  idleToClose,
  LAUNCH_GRACE_MS,
  launched,
  type PoolLimits,
  type PoolState,
  released,
  renewed,
  tidy,
} from '../../src/domain/render/pool';
import { actionFailed, actionsNotDone, renderWhy, requestVerdict, screenshotOf } from '../../src/domain/render/rules';

const page = { url: 'https://shop.example/p/1', screenshot: false, allowPrivate: false };
const req = (url: string, resourceType = 'script', mainFrameNavigation = false) => ({
  url,
  resourceType,
  mainFrameNavigation,
});

describe('requestVerdict: what a page in the browser may load', () => {
  it.each([
    ['the page itself', req('https://shop.example/p/1', 'document', true), true],
    ['the page with a fragment', req('https://shop.example/p/1#top', 'document', true), true],
    ['a script sending the page elsewhere', req('https://shop.example/login', 'document', true), false],
    ['its own script', req('https://shop.example/app.js'), true],
    ['a CDN script', req('https://cdn.other.example/react.js'), true],
    ['a CDN stylesheet', req('https://cdn.other.example/site.css', 'stylesheet'), true],
    ['an API call (fetch) to another host', req('https://api.other.example/items', 'fetch'), true],
    ['an XHR to another host', req('https://api.other.example/items', 'xhr'), true],
    ['an image', req('https://shop.example/a.png', 'image'), false],
    ['a font', req('https://fonts.example/a.woff2', 'font'), false],
    ['a video', req('https://shop.example/a.mp4', 'media'), false],
    ['an iframe from another host', req('https://ads.example/frame', 'document'), false],
    ['a websocket to another host', req('https://chat.example/ws', 'websocket'), false],
    ['cloud metadata', req('http://169.254.169.254/latest/meta-data/', 'fetch'), false],
    ['loopback', req('http://127.0.0.2/admin', 'xhr'), false],
    ['loopback in decimal', req('http://2130706433/', 'fetch'), false],
    ['a private range', req('http://10.0.0.5/', 'script'), false],
    ['IPv6 loopback', req('http://[::1]/', 'fetch'), false],
    ['localhost', req('http://localhost:8080/', 'fetch'), false],
    ['a file: URL', req('file:///etc/passwd', 'fetch'), false],
    ['a data: URL', req('data:text/plain,hi', 'fetch'), true],
  ])('%s', (_name, request, allow) => {
    expect(requestVerdict(request, page).allow).toBe(allow);
  });

  it('loads images, fonts and other hosts for a screenshot, but never private addresses', () => {
    const shot = { ...page, screenshot: true };
    expect(requestVerdict(req('https://img.cdn.example/a.png', 'image'), shot).allow).toBe(true);
    expect(requestVerdict(req('https://fonts.example/a.woff2', 'font'), shot).allow).toBe(true);
    expect(requestVerdict(req('http://169.254.169.254/', 'image'), shot)).toEqual({
      allow: false,
      why: 'private network address',
    });
  });

  it('lets private hosts through only as ALLOW_PRIVATE_NETWORKS lists them', () => {
    const local = { ...page, url: 'http://127.0.0.1:9000/', allowPrivate: ['127.0.0.1'] };
    expect(requestVerdict(req('http://127.0.0.1:9000/app.js'), local).allow).toBe(true);
    expect(requestVerdict(req('http://127.0.0.2:9000/app.js'), local).allow).toBe(false);
  });
});

describe('renderWhy: whether a fetched page goes to the browser', () => {
  const shell = () => 'empty-app-root';
  const full = () => null;
  it.each([
    ['never renders', { render: 'never' as const, screenshot: { fullPage: false } }, shell, null],
    ['always renders', { render: 'always' as const }, full, 'always'],
    ['auto renders a shell', { render: 'auto' as const }, shell, 'auto: empty-app-root'],
    ['auto leaves a server-rendered page', { render: 'auto' as const }, full, null],
    ['auto renders for a screenshot', { render: 'auto' as const, screenshot: { fullPage: true } }, full, 'screenshot'],
  ])('%s', (_name, options, need, why) => {
    expect(renderWhy(options, need)).toBe(why);
  });

  it('asks the page only under auto', () => {
    let asked = 0;
    renderWhy({ render: 'always' }, () => {
      asked++;
      return null;
    });
    expect(asked).toBe(0);
  });

  it('reads a screenshot format', () => {
    expect(screenshotOf(['markdown'])).toBeNull();
    expect(screenshotOf(['screenshot'])).toEqual({ fullPage: false });
    expect(screenshotOf(['screenshot', 'screenshot@fullPage'])).toEqual({ fullPage: true });
  });
});

describe("why a scrape's actions were not done", () => {
  // Which of the two it was is the outcome's code (action_failed, render_failed), not read back from these words.
  it('names the action that failed, or says the page was not rendered', () => {
    const cases = [
      [actionFailed(0, 3, { type: 'click', selector: 'a[href="/x"]' }, 'no element matches it'), 'action'],
      [actionFailed(1, 2, { type: 'wait', selector: '.list' }, '".list" did not appear within 10 ms'), 'action'],
      [actionFailed(0, 1, { type: 'wait', milliseconds: 500 }, 'timed out'), 'action'],
      [actionsNotDone(1, 'render: the page did not load (timed out)'), 'render'],
      [actionsNotDone(4, 'browser: disconnected; gave up rendering after 3 tries'), 'render'],
    ] as const;
    expect(cases[0][0]).toBe(
      'action 1 of 3 (click "a[href=\\"/x\\"]") could not be done: no element matches it; the page was not read',
    );
    expect(cases[2][0]).toContain('(wait 500 ms)');
    expect(cases[3][0]).toBe(
      'the page could not be rendered, so its action was not done: render: the page did not load (timed out)',
    );
    expect(cases[4][0]).toMatch(/^the page could not be rendered, so its 4 actions were not done: /);
    expect(actionFailed(0, 1, { type: 'press', key: 'Enter' }, 'x')).toContain('(press Enter)');
    expect(actionFailed(0, 1, { type: 'type', selector: '#q', text: 'hi' }, 'x')).toContain('(type into "#q")');
  });
});

describe('the browser pool', () => {
  const limits: PoolLimits = {
    maxBrowsers: 2,
    launchesPerMinute: 3,
    keepAliveMs: 60_000,
    holdMs: 60_000,
    idleCloseMs: 15_000,
  };
  let n = 0;
  const ticket = () => `t${++n}`;
  const ask = (state: PoolState, holder: string, now = 0) => grant(state, holder, now, limits, ticket);

  it('launches up to the limit, then makes the next consumer wait', () => {
    let state = emptyPool();
    const a = ask(state, 'a');
    expect(a.grant.kind).toBe('launch');
    state = a.state;
    const b = ask(state, 'b');
    expect(b.grant.kind).toBe('launch');
    state = b.state;
    const c = ask(state, 'c');
    expect(c.grant).toMatchObject({ kind: 'wait', why: 'browsers' });
    expect(c.state.sessions).toHaveLength(2);
  });

  it('hands a released browser to the next consumer to connect to, instead of launching one', () => {
    let state = ask(emptyPool(), 'a').state;
    const id = state.sessions[0]?.id ?? '';
    state = launched(state, id, 'session-1', 10, limits);
    expect(state.sessions).toEqual([{ id: 'session-1', holder: 'a', until: 10 + limits.holdMs }]);
    state = released(state, 'session-1', true, 20, limits);
    expect(ask(state, 'b', 30).grant).toEqual({ kind: 'connect', sessionId: 'session-1' });
  });

  it('forgets a dead browser and a failed launch, so the count goes down', () => {
    let state = ask(emptyPool(), 'a').state;
    const ticketId = state.sessions[0]?.id ?? '';
    state = released(state, ticketId, false, 5, limits);
    expect(state.sessions).toEqual([]);
    const asked = ask(state, 'b', 6).state;
    state = launched(asked, asked.sessions[0]?.id ?? '', 'session-2', 7, limits);
    expect(state.sessions.map((s) => s.id)).toEqual(['session-2']);
    expect(released(state, 'session-2', false, 8, limits).sessions).toEqual([]);
  });

  it('keeps to the launch rate', () => {
    let state = emptyPool();
    for (const holder of ['a', 'b', 'c']) {
      const next = ask(state, holder, 0);
      expect(next.grant.kind).toBe('launch');
      state = released(next.state, next.state.sessions.at(-1)?.id ?? '', false, 0, limits);
    }
    expect(ask(state, 'd', 1_000).grant).toMatchObject({ kind: 'wait', why: 'launches' });
    expect(ask(state, 'd', 60_001).grant.kind).toBe('launch');
  });

  it("takes back a dead consumer's hold, and drops browsers past their keep_alive and stale launches", () => {
    let state = ask(emptyPool(), 'a', 0).state;
    state = launched(state, state.sessions[0]?.id ?? '', 's1', 0, limits);
    state = ask(state, 'b', 0).state; // a launch never reported
    const later = tidy(state, limits.holdMs + 1, limits);
    expect(later.sessions.map((s) => [s.id, s.holder])).toEqual([['s1', null]]);
    expect(tidy(state, LAUNCH_GRACE_MS + limits.holdMs + limits.keepAliveMs, limits).sessions).toEqual([]);
  });

  it('renews only the holder’s hold', () => {
    let state = launched(ask(emptyPool(), 'a', 0).state, 'x', 's1', 0, limits);
    state = { ...state, sessions: [{ id: 's1', holder: 'a', until: 100 }] };
    expect(renewed(state, 's1', 'b', 50, limits).sessions[0]?.until).toBe(100);
    expect(renewed(state, 's1', 'a', 50, limits).sessions[0]?.until).toBe(50 + limits.holdMs);
  });

  it('closes a browser nobody took within idleCloseMs, and says when to look again', () => {
    let state = launched(ask(emptyPool(), 'a', 0).state, 'x', 's1', 0, limits);
    state = launched(
      ask(state, 'b', 0).state,
      state.sessions.find((s) => s.id.startsWith('launch:'))?.id ?? '',
      's2',
      0,
      limits,
    );
    state = released(released(state, 's1', true, 1_000, limits), 's2', true, 5_000, limits);
    expect(idleToClose(state, 10_000, limits)).toMatchObject({ close: [], nextAt: 16_000 });
    const first = idleToClose(state, 16_000, limits);
    expect(first).toMatchObject({ close: ['s1'], nextAt: 20_000 });
    expect(first.state.sessions.map((s) => s.id)).toEqual(['s2']);
    // Taken again before its time: not idle, not closed.
    const taken = ask(first.state, 'c', 19_000).state;
    expect(idleToClose(taken, 30_000, limits)).toMatchObject({ close: [], nextAt: null });
  });
});
