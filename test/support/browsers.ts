import { env } from 'cloudflare:workers';
import puppeteer from '@cloudflare/puppeteer';

/**
 * Pages open in every live browser session but the blank one a browser starts with: the tabs a consumer leaked. (The
 * local simulator does not clear a session's connectionId when a connection closes, so connections cannot be counted.)
 */
export async function leakedTabs(): Promise<number> {
  let leaked = 0;
  for (const session of await puppeteer.sessions(env.BROWSER)) {
    const browser = await puppeteer.connect(env.BROWSER, session.sessionId).catch(() => null);
    if (!browser) continue; // closed since it was listed
    leaked += (await browser.pages()).filter((p) => p.url() !== 'about:blank').length;
    await browser.disconnect();
  }
  return leaked;
}
