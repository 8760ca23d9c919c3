/**
 * The BROWSER binding (Cloudflare Browser Rendering) inside workerd, driven with @cloudflare/puppeteer as the Worker
 * would. Locally miniflare launches the Chromium that scripts/lib/browser-setup.ts put where it looks for Chrome (the
 * global setup runs it), offline. Not as on Cloudflare: keep_alive is accepted and ignored (a local browser lives
 * until it is closed or the run ends), limits() are fixed numbers, and history() is undefined (miniflare answers
 * /v1/history with a bare list; the client reads a `history` field).
 */

import { env } from 'cloudflare:workers';
import puppeteer, { type Browser } from '@cloudflare/puppeteer';
import { describe, expect, it } from 'vitest';
import { site, siteLog } from '../support/api';

const url = (ns: string, i: number) => `${site()}/t/${ns}/tree-7/p${i}.html`;

/** The heading of each tree page (`Page i of 7`), read in the page. */
async function heading(browser: Browser, target: string): Promise<unknown> {
  const tab = await browser.newPage();
  await tab.goto(target);
  return tab.evaluate('document.querySelector("h1").textContent');
}

const sessionIds = async () => (await puppeteer.sessions(env.BROWSER)).map((s) => s.sessionId);

describe('the BROWSER binding', () => {
  it('launches a browser that loads pages of the test site, runs their JavaScript, and closes', async () => {
    const browser = await puppeteer.launch(env.BROWSER);
    try {
      const tab = await browser.newPage();
      await tab.goto(url('browser', 1));
      expect(await tab.title()).toBe('Tree page 1');
      expect(await tab.evaluate('document.querySelectorAll("li a").length')).toBe(9);
      // The first link is "p2.html", resolved by the page against its URL.
      expect(await tab.evaluate('document.querySelector("li a").href')).toBe(url('browser', 2));
      expect(await tab.content()).toContain('<h1 id="top">Page 1 of 7</h1>');
    } finally {
      await browser.close();
    }
    expect(await siteLog('browser')).toContain(`${new URL(site()).host} /t/browser/tree-7/p1.html`);
  });

  it('opens three tabs at once in one browser', async () => {
    const browser = await puppeteer.launch(env.BROWSER);
    try {
      const headings = await Promise.all([2, 3, 4].map((i) => heading(browser, url('tabs', i))));
      expect(headings).toEqual(['Page 2 of 7', 'Page 3 of 7', 'Page 4 of 7']);
      expect((await browser.pages()).length).toBeGreaterThanOrEqual(3);
    } finally {
      await browser.close();
    }
  });

  it('lists a kept-alive session, connects to it again by its id, and ends it on close', async () => {
    const first = await puppeteer.launch(env.BROWSER, { keep_alive: 60_000 });
    const sessionId = first.sessionId();
    expect(await heading(first, url('session', 5))).toBe('Page 5 of 7');
    expect(await sessionIds()).toContain(sessionId);
    await first.disconnect();
    expect(await sessionIds()).toContain(sessionId);

    const second = await puppeteer.connect(env.BROWSER, sessionId);
    try {
      expect(second.sessionId()).toBe(sessionId);
      // The tab the first connection opened is still there.
      expect((await second.pages()).map((tab) => tab.url())).toContain(url('session', 5));
      expect(await heading(second, url('session', 6))).toBe('Page 6 of 7');
    } finally {
      await second.close();
    }
    await expect.poll(sessionIds, { timeout: 10_000 }).not.toContain(sessionId);
  });

  it('answers limits() with fixed numbers and history() with nothing (as miniflare does)', async () => {
    expect(await puppeteer.limits(env.BROWSER)).toEqual({
      maxConcurrentSessions: 6,
      allowedBrowserAcquisitions: 6,
      timeUntilNextAllowedBrowserAcquisition: 0,
    });
    expect(await puppeteer.history(env.BROWSER)).toBeUndefined();
  });
});
