import { env } from 'cloudflare:workers';
import puppeteer from '@cloudflare/puppeteer';
import { describe, expect, it } from 'vitest';
import { BROWSER_WAIT_TRIES, RENDER_TRIES } from '../../src/domain/render/rules';
import { sleep } from '../../src/lib/sleep';
import { POOL_NAME } from '../../src/objects/browser-pool';
import { hostGateClient } from '../../src/objects/host-gate-client';
import { type BrowserPoolApi, BusyClock, InvocationBrowser } from '../../src/page/browsers';
import { pipelineDeps } from '../../src/page/deps';
import type { Job } from '../../src/page/job';
import { type RenderStep, renderStep } from '../../src/page/rendering';
import { readSettings, type Settings } from '../../src/settings';
import { namespace, site } from '../support/api';
import { leakedTabs } from '../support/browsers';

/** A claimed URL to render, with the consumer's deps around the given browser. */
function jobFor(url: string, browser: InvocationBrowser, settings: Settings, deliveries: number): Job {
  return {
    task: { crawlId: 'render-faults', url, depth: 0, hops: 0 },
    claim: { depth: 0, hops: 0, kind: 'page', attempts: 1 },
    deliveries,
    deps: pipelineDeps(
      {
        settings,
        policy: () => true,
        sitemapInScope: () => false,
        readSitemaps: false,
        extract: null,
        crawlId: 'render-faults',
        gate: hostGateClient(env.HOSTS, settings),
        politeness: { minIntervalMs: 0 },
      },
      { render: { options: { render: 'always' }, browser, clock: new BusyClock(), take: async () => true } },
    ),
  };
}

const render = (url: string, browser: InvocationBrowser, settings: Settings, deliveries = 1) =>
  renderStep(jobFor(url, browser, settings, deliveries), () => null);

/** Crashes the browser process of `browser` (the DevTools protocol's Browser.crash, from a tab of its own). */
const crash = (browser: InvocationBrowser) =>
  browser
    .withTab(async (tab) => {
      const cdp = await tab.browser().target().createCDPSession();
      await cdp.send('Browser.crash').catch(() => undefined);
    })
    .catch(() => undefined);

function expectRequeued(step: RenderStep, reason: RegExp): void {
  expect(step.kind, JSON.stringify(step)).toBe('requeue');
  if (step.kind !== 'requeue') return;
  expect(step.processed.outcome).toMatchObject({ kind: 'released', fetched: true });
  expect(step.processed.outcome.kind === 'released' && step.processed.outcome.reason).toMatch(reason);
}

describe('browser faults', () => {
  it('a browser that crashes mid-render: retried without an attempt, then stored unrendered; a new browser next', async () => {
    const settings = readSettings(env);
    const browser = new InvocationBrowser(env.BROWSER, env.BROWSERS.getByName(POOL_NAME), settings);
    const slow = `${site()}/t/${namespace()}/spa/slow.html`;
    try {
      for (const deliveries of [1, RENDER_TRIES]) {
        const pending = render(slow, browser, settings, deliveries);
        await sleep(600);
        await crash(browser);
        const step = await pending;
        if (deliveries < RENDER_TRIES) expectRequeued(step, /^browser: /);
        else
          expect(step).toMatchObject({
            kind: 'unrendered',
            warning: expect.stringMatching(new RegExp(`gave up rendering after ${RENDER_TRIES} tries$`)),
          });
      }
      // The crashed browser was handed back dead; the next page gets another and renders.
      const step = await render(`${site()}/t/${namespace()}/spa/app-1.html`, browser, settings);
      expect(step.kind).toBe('rendered');
    } finally {
      await browser.close();
    }
    expect(browser.openTabs).toBe(0);
    expect((await env.BROWSERS.getByName(POOL_NAME).census()).held).toBe(0);
    expect(await leakedTabs()).toBe(0);
    expect((await puppeteer.sessions(env.BROWSER)).length).toBeLessThanOrEqual(settings.browserMax);
  });

  it("the account's browser limit reached: the URL waits in the queue (no attempt used), never more browsers", async () => {
    const pool = env.BROWSERS.getByName(`limit-${namespace()}`);
    const settings = { ...readSettings(env), renderMaxWaitMs: 300 };
    // Other consumers hold every browser the account may run.
    const fillers = await Promise.all(
      Array.from({ length: settings.browserMax }, (_, i) => pool.acquire(`other-consumer-${i}`)),
    );
    expect(fillers.every((g) => g.kind === 'launch')).toBe(true);
    expect(await pool.acquire('one-too-many')).toMatchObject({ kind: 'wait', why: 'browsers' });

    const url = `${site()}/t/${namespace()}/spa/app-1.html`;
    const waiting = new InvocationBrowser(env.BROWSER, pool, settings);
    expectRequeued(await render(url, waiting, settings), /none free \(browsers at the limit\)/);
    expectRequeued(await render(url, waiting, settings, BROWSER_WAIT_TRIES - 1), /none free/);
    expect(await render(url, waiting, settings, BROWSER_WAIT_TRIES)).toMatchObject({
      kind: 'unrendered',
      warning: expect.stringContaining(`gave up rendering after ${BROWSER_WAIT_TRIES} tries`),
    });

    // A browser handed back is the next consumer's.
    const first = fillers[0];
    if (first?.kind === 'launch') await pool.release(first.ticket, false);
    expect((await render(url, waiting, settings)).kind).toBe('rendered');
    await waiting.close();
    expect(await pool.census()).toMatchObject({ held: 0, idle: 1, launching: settings.browserMax - 1 });
  });

  it('an idle browser is reconnected to by the next invocation, not launched again', async () => {
    const pool: BrowserPoolApi = env.BROWSERS.getByName(`reuse-${namespace()}`);
    const settings = readSettings(env);
    const url = `${site()}/t/${namespace()}/spa/app-2.html`;
    const sessions: string[] = [];
    for (let invocation = 0; invocation < 3; invocation++) {
      const browser = new InvocationBrowser(env.BROWSER, pool, settings);
      const steps = await Promise.all([render(url, browser, settings), render(url, browser, settings)]);
      expect(steps.map((s) => s.kind)).toEqual(['rendered', 'rendered']);
      await browser.close();
      const grant = await pool.acquire('probe');
      expect(grant.kind).toBe('connect');
      if (grant.kind === 'connect') {
        sessions.push(grant.sessionId);
        await pool.release(grant.sessionId, true);
      }
    }
    expect(new Set(sessions).size).toBe(1);
  });

  it('closes a browser left idle past BROWSER_IDLE_CLOSE_MS (billed while it lives)', async () => {
    const pool = env.BROWSERS.getByName(`idle-${namespace()}`);
    const settings = readSettings(env);
    const browser = new InvocationBrowser(env.BROWSER, pool, settings);
    expect((await render(`${site()}/t/${namespace()}/spa/app-1.html`, browser, settings)).kind).toBe('rendered');
    await browser.close();
    const grant = await pool.acquire('probe');
    expect(grant.kind).toBe('connect');
    if (grant.kind !== 'connect') return;
    await pool.release(grant.sessionId, true);
    expect((await puppeteer.sessions(env.BROWSER)).map((s) => s.sessionId)).toContain(grant.sessionId);
    await sleep(settings.browserIdleCloseMs + 2_000);
    expect(await pool.census()).toMatchObject({ held: 0, idle: 0 });
    const live = async () => (await puppeteer.sessions(env.BROWSER)).map((s) => s.sessionId);
    for (let i = 0; i < 20 && (await live()).includes(grant.sessionId); i++) await sleep(250);
    expect(await live()).not.toContain(grant.sessionId);
  });
});
