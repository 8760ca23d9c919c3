/**
 * Waiting for a crawl (cli/wait.ts) against a stand-in fetch: the typed client as the CLI makes it, answers scripted.
 * Transient failures (edgecrawl not reached, a 5xx) are ridden out, up to five in a row; a 4xx ends the waiting.
 * Runs in Node (vitest project "repo"), type-checked with tsconfig.cli.json.
 */
import { describe, expect, it } from 'vitest';
import { makeClient } from '../../cli/client.ts';
import { CliError, TransientError } from '../../cli/errors.ts';
import { waitForCrawl } from '../../cli/wait.ts';

const ID = '00000000-0000-4000-8000-000000000000';

type Step = { status: number; body: unknown } | 'unreachable';

function stats(status: string, stored: number, pending: number, pagesPerSecond: number) {
  const counts = { discovered: stored + pending, fetched: stored, stored, failed: 0, skipped: 0 };
  return { status: 200, body: { id: ID, status, counts, pending, rate: { pagesPerSecond } } };
}

/** A client whose requests get `steps` in turn; `urls` records what was asked. */
function scripted(steps: Step[]) {
  const urls: string[] = [];
  const fetchStandIn: typeof fetch = async (input) => {
    urls.push(String(input));
    const step = steps.shift();
    if (step === undefined) throw new Error('no answer left');
    if (step === 'unreachable') throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    return Response.json(step.body, { status: step.status });
  };
  return { client: makeClient({ url: 'http://edgecrawl.test', token: 't' }, fetchStandIn), urls };
}

function sink() {
  const chunks: string[] = [];
  return { out: { columns: 0, write: (chunk: string) => chunks.push(chunk) > 0 }, text: () => chunks.join('') };
}

describe('waitForCrawl', () => {
  it('polls the stats until the crawl ends, riding out failures that may pass', async () => {
    const { client, urls } = scripted([
      stats('running', 1, 9, 2),
      { status: 503, body: { error: { code: 'unavailable', message: 'busy' } } },
      'unreachable',
      stats('running', 6, 4, 2),
      stats('completed', 10, 0, 0),
    ]);
    const { out, text } = sink();
    const end = await waitForCrawl(client, ID, 'lines', { out, pollMs: 1 });
    expect(end).toMatchObject({ status: 'completed', counts: { stored: 10 }, pending: 0 });
    expect(urls).toHaveLength(5);
    expect(urls[0]).toBe(`http://edgecrawl.test/v1/crawls/${ID}/stats?window=10`);
    // Lines: the first, then at most one each 5 s, and the last.
    expect(text()).toBe(
      '1/10 · 1 stored · 0 failed · 9 pending · 2.0 pages/s · ETA 5s\n10/10 · 10 stored · 0 failed · completed\n',
    );
  });

  it('draws a bar in place, ending the line at the end', async () => {
    const { client } = scripted([stats('running', 2, 2, 1), stats('cancelled', 2, 0, 0)]);
    const { out, text } = sink();
    await waitForCrawl(client, ID, 'bar', { out, pollMs: 1 });
    expect(text()).toBe(
      `\r[${'█'.repeat(12)}${'░'.repeat(12)}] 2/4 · 2 stored · 0 failed · 2 pending · 1.0 pages/s · ETA 2s\x1b[K` +
        `\r[${'█'.repeat(24)}] 2/2 · 2 stored · 0 failed · cancelled\x1b[K\n`,
    );
  });

  it('gives up after five failures in a row', async () => {
    const { client, urls } = scripted(Array.from({ length: 6 }, (): Step => 'unreachable'));
    const { out } = sink();
    const waiting = waitForCrawl(client, ID, 'none', { out, pollMs: 1 });
    await expect(waiting).rejects.toBeInstanceOf(TransientError);
    await expect(waiting).rejects.toThrow(
      'cannot reach edgecrawl at http://edgecrawl.test: connect ECONNREFUSED; start it with `npm start` or set EDGECRAWL_URL',
    );
    expect(urls).toHaveLength(5);
  });

  it('stops at once on an answer that will not change (4xx), with the API message', async () => {
    const { client, urls } = scripted([
      { status: 404, body: { error: { code: 'not_found', message: `no crawl with id "${ID}"` } } },
    ]);
    const waiting = waitForCrawl(client, ID, 'none', { out: sink().out, pollMs: 1 });
    await expect(waiting).rejects.toThrow(new CliError(`no crawl with id "${ID}" (404 not_found)`));
    await expect(waiting).rejects.not.toBeInstanceOf(TransientError);
    expect(urls).toHaveLength(1);
  });
});
