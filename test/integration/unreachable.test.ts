import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { fetchOnce, NetworkError } from '../../src/page/fetcher';
import { readSettings } from '../../src/settings';
import { api, createCrawl, namespace, site, waitForCrawl } from '../support/api';

/** A name that does not resolve here (workerd throws "internal error; reference = …" for it within milliseconds). */
const NO_SUCH_HOST = 'nonexistent-host.invalid';
/** Nothing listens on port 1 of loopback: the connection is refused. */
const CLOSED = 'http://127.0.0.1:1';

/** The failure fetchOnce names for `url`, and how long it took. */
async function failureOf(url: string): Promise<{ kind: string; message: string; ms: number }> {
  const started = Date.now();
  try {
    await fetchOnce(url, readSettings(env));
  } catch (error) {
    if (error instanceof NetworkError) return { ...error.failure, ms: Date.now() - started };
    throw error;
  }
  throw new Error(`${url} answered`);
}

async function errorsOf(id: string): Promise<{ url: string; outcome: string; reason: string; code: string }[]> {
  const { results } = await env.DB.prepare(
    'SELECT url, outcome, reason, code FROM errors WHERE crawl_id = ? ORDER BY url',
  )
    .bind(id)
    .all<{ url: string; outcome: string; reason: string; code: string }>();
  return results;
}

describe('a fetch that gets no HTTP answer is named for what happened', () => {
  it.each([
    ['a name that does not resolve', `http://${NO_SUCH_HOST}/`, 'dns', `dns: host not found (${NO_SUCH_HOST})`],
    ['a closed port', `${CLOSED}/`, 'refused', 'refused: connection refused (127.0.0.1:1)'],
  ])('%s, within a second', async (_name, url, kind, message) => {
    const failure = await failureOf(url);
    expect(failure).toMatchObject({ kind, message });
    expect(failure.ms).toBeLessThan(1000);
  });

  it('a connection reset, a hang and a TLS handshake with a plain-HTTP server', async () => {
    const ns = namespace();
    const port = new URL(site()).port;
    expect(await failureOf(`${site()}/t/${ns}/faults/reset`)).toMatchObject({
      kind: 'reset',
      message: `reset: connection lost (127.0.0.1:${port})`,
    });
    expect(await failureOf(`${site()}/t/${ns}/faults/hang`)).toMatchObject({
      kind: 'timeout',
      message: `timeout after ${env.FETCH_TIMEOUT_MS} ms`,
    });
    expect(await failureOf(`https://127.0.0.1:${port}/`)).toMatchObject({
      kind: 'tls',
      message: `tls: handshake failed (127.0.0.1:${port})`,
    });
  });
});

describe('a crawl of a host that cannot be reached', () => {
  it.each([
    ['a closed port', `${CLOSED}/`, /^refused: connection refused \(127\.0\.0\.1:1\)$/, 'connection_refused'],
    [
      'a name that does not resolve',
      `http://${NO_SUCH_HOST}/`,
      /^dns: host not found \(nonexistent-host\.invalid\)$/,
      'dns',
    ],
  ])(
    '%s: completed within seconds, the seed failed for that reason, not robots.txt',
    async (_name, seed, reason, code) => {
      const started = Date.now();
      const id = await createCrawl({ seeds: [seed] });
      const crawl = await waitForCrawl(id, 20_000);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(crawl.status).toBe('completed');
      expect(crawl.counts).toMatchObject({ discovered: 1, fetched: 0, failed: 1 });
      const errors = await errorsOf(id);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ url: seed, outcome: 'failed' });
      expect(errors[0]?.reason).toMatch(reason);
      expect(errors[0]?.code).toBe(code);
    },
  );

  it('the host gate answers every URL of the origin at once with the failure, for its cache period', async () => {
    const gate = env.HOSTS.getByName(NO_SUCH_HOST);
    for (const path of ['/a', '/b']) {
      const started = Date.now();
      const admission = await gate.admit({ url: `http://${NO_SUCH_HOST}${path}`, minIntervalMs: 0, maxWaitMs: 1000 });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(admission).toMatchObject({
        kind: 'unreachable',
        failure: { kind: 'dns', message: `dns: host not found (${NO_SUCH_HOST})` },
      });
    }
    const state = await gate.state();
    expect(state.robots.find((r) => r.origin === `http://${NO_SUCH_HOST}`)).toMatchObject({
      kind: 'unreachable',
      failure: { kind: 'dns' },
    });
  });
});

describe('POST /v1/scrape of a host that cannot be reached', () => {
  const scrape = async (url: string) => {
    const res = await api('/v1/scrape', { method: 'POST', body: JSON.stringify({ url }) });
    return { status: res.status, body: (await res.json()) as { error: { code: string; message: string } } };
  };
  it.each([
    [
      'a name that does not resolve',
      `http://${NO_SUCH_HOST}/x`,
      502,
      'dns_error',
      `http://${NO_SUCH_HOST}/x: dns: host not found (${NO_SUCH_HOST})`,
    ],
    [
      'a closed port',
      `${CLOSED}/x`,
      502,
      'connection_refused',
      `${CLOSED}/x: refused: connection refused (127.0.0.1:1)`,
    ],
  ])('%s: the named failure', async (_name, url, status, code, message) => {
    const started = Date.now();
    expect(await scrape(url)).toEqual({ status, body: { error: { code, message } } });
    expect(Date.now() - started).toBeLessThan(5000);
  });
  it('a page that never answers: a timeout', async () => {
    const url = `${site()}/t/${namespace()}/faults/hang`;
    expect(await scrape(url)).toEqual({
      status: 504,
      body: { error: { code: 'timeout', message: `${url}: timeout after ${env.FETCH_TIMEOUT_MS} ms` } },
    });
  });

  it('times out on time while another request that fetched beside it has ended', async () => {
    // Timers belong to the request (or queue invocation) that set them, and end with it. A first request whose fetch
    // starts first and ends while the hang is still waiting must take nothing of the hang's deadline with it (a
    // shared heartbeat once did: the deadline then ran to its hard stop, 30 s past its length).
    const ns = namespace();
    const slow = scrape(`${site()}/t/${ns}/pure-1-d1000/`);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const hang = await scrape(`${site()}/t/${ns}/faults/hang`);
    expect((await slow).status).toBe(200);
    expect(hang.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(Number(env.FETCH_TIMEOUT_MS) + 3000);
  });
});
