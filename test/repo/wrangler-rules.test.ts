/**
 * Platform rules that live in wrangler.toml, checked against the code that depends on them.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attemptsFitQueue } from '../../src/domain/crawl/url-life';
import { BROWSER_WAIT_TRIES, RENDER_TRIES } from '../../src/domain/render/rules';

const toml = readFileSync(resolve(import.meta.dirname, '../../wrangler.toml'), 'utf8');

/** The [[queues.consumers]] tables, each as its key = value pairs (numbers and strings only: all these need). */
function consumers(): Record<string, string>[] {
  return toml
    .split(/^\[\[queues\.consumers\]\]\s*$/m)
    .slice(1)
    .map((block) => {
      const body = block.split(/^\[/m)[0] ?? '';
      return Object.fromEntries(
        [...body.matchAll(/^(\w+)\s*=\s*"?([^"\n]*)"?\s*$/gm)].map((m) => [m[1] as string, m[2] as string]),
      );
    });
}

describe('wrangler.toml and the life of a URL', () => {
  const maxAttempts = Number(/^MAX_ATTEMPTS\s*=\s*"(\d+)"/m.exec(toml)?.[1]);
  const frontiers = consumers().filter((c) => c.queue?.startsWith('edgecrawl-frontier'));

  it('has the three frontier queues, each with a dead-letter queue', () => {
    expect(frontiers.map((c) => c.queue).sort()).toEqual([
      'edgecrawl-frontier',
      'edgecrawl-frontier-high',
      'edgecrawl-frontier-paced',
    ]);
    for (const c of frontiers) expect(c.dead_letter_queue, c.queue).toBe('edgecrawl-dlq');
  });

  it("tells the Worker the frontier queues' max_retries (QUEUE_MAX_RETRIES)", () => {
    const told = Number(/^QUEUE_MAX_RETRIES\s*=\s*"(\d+)"/m.exec(toml)?.[1]);
    for (const c of frontiers) expect(Number(c.max_retries), c.queue).toBe(told);
  });

  it('fails a URL by its own count (MAX_ATTEMPTS) before the queue dead-letters its message (max_retries)', () => {
    expect(Number.isInteger(maxAttempts)).toBe(true);
    for (const c of frontiers)
      expect(
        attemptsFitQueue(maxAttempts, Number(c.max_retries)),
        `${c.queue}: MAX_ATTEMPTS ${maxAttempts}, max_retries ${c.max_retries}`,
      ).toBe(true);
  });

  it('stores a page unrendered after its render faults before the queue dead-letters its message', () => {
    // A message is delivered at most max_retries + 1 times; the last render try must come before that.
    for (const c of frontiers)
      expect(Math.max(RENDER_TRIES, BROWSER_WAIT_TRIES)).toBeLessThanOrEqual(Number(c.max_retries));
  });
});

describe("wrangler.toml and the platform's limits per invocation", () => {
  const limits = /^\[limits\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? '';
  const limit = (name: string) => Number(new RegExp(`^${name}\\s*=\\s*(\\d+)`, 'm').exec(limits)?.[1]);

  it('plans subrequests below the limit it names (SUBREQUEST_BUDGET < [limits] subrequests)', () => {
    const budget = Number(/^SUBREQUEST_BUDGET\s*=\s*"(\d+)"/m.exec(toml)?.[1]);
    expect(Number.isInteger(budget) && Number.isInteger(limit('subrequests'))).toBe(true);
    expect(budget).toBeLessThan(limit('subrequests'));
  });

  it('names the CPU time an invocation may take, within the platform maximum of 5 minutes', () => {
    expect(limit('cpu_ms')).toBeGreaterThanOrEqual(30_000);
    expect(limit('cpu_ms')).toBeLessThanOrEqual(300_000);
  });
});
