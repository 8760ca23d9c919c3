import { openJar, sealJar } from '../credentials';
import { hostAllowed } from '../domain/credentials/access';
import { type JarCookie, jarCookiesFor, keepCookies } from '../domain/credentials/cookie-jar';
import { log } from '../log';
import type { CookieJar } from '../page/deps';
import type { CrawlStub } from './finished';

/** Writes of the jar tried at most when other invocations keep writing it in between. */
const WRITE_TRIES = 5;

/**
 * A logged-in crawl's cookie jar as its consumers use it: kept sealed in the crawl's object (objects/crawl/cookie-jar.ts),
 * read before each request to a credential host and written, merged, after each response from one that sets cookies,
 * so every invocation sends the session the site last gave. Requests to other hosts never touch it. Cookie values are
 * never logged: only counts and reasons.
 */
export function crawlCookieJar(env: Env, crawlId: string, stub: CrawlStub, hosts: readonly string[]): CookieJar {
  const opened = new Map<string, JarCookie[]>();
  const read = async (): Promise<{ jar: JarCookie[]; version: number }> => {
    const stored = await stub.readJar();
    if (stored === null || stored.sealed === null) return { jar: [], version: stored?.version ?? 0 };
    const jar = opened.get(stored.sealed) ?? (await openJar(env, stored.sealed));
    opened.clear(); // one at a time: the last read
    opened.set(stored.sealed, jar);
    return { jar, version: stored.version };
  };
  return {
    async cookiesFor(url) {
      const parsed = new URL(url);
      if (!hostAllowed(hosts, parsed.hostname)) return [];
      return jarCookiesFor((await read()).jar, parsed, hosts, Date.now());
    },
    async keep(url, setCookies) {
      const parsed = new URL(url);
      if (setCookies.length === 0 || !hostAllowed(hosts, parsed.hostname)) return;
      for (let i = 0; i < WRITE_TRIES; i++) {
        const { jar, version } = await read();
        const next = keepCookies(jar, setCookies, parsed, hosts, Date.now());
        if (next === null) return;
        if (await stub.writeJar(await sealJar(env, next), version)) return;
      }
      log('warn', 'cookie jar: not written (other invocations kept writing it)', { crawlId, tries: WRITE_TRIES });
    },
  };
}
