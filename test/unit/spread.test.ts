import { describe, expect, it } from 'vitest';
import { RESERVE_HORIZON_MS } from '../../src/domain/politeness/reservation';
import { dueDelaySeconds, HostPlan, spacingFor, windowCap, windowMs } from '../../src/domain/politeness/spread';

const NOW = 1_000_000;
const SPACING = spacingFor(1000); // 1010

describe('HostPlan: a crawl spreads each host’s URLs at the host’s pace', () => {
  it('with politeness lifted, every URL is due now', () => {
    const plan = new HostPlan();
    expect(plan.plan(['a', 'a', 'b'], NOW, 0)).toEqual([NOW, NOW, NOW]);
    expect(plan.knows('a')).toBe(false);
  });

  it('a new host’s first URL is due a spacing on (its robots.txt first), the next ones a spacing apart', () => {
    const plan = new HostPlan();
    expect(plan.plan(['a', 'a', 'a'], NOW, SPACING)).toEqual([NOW + SPACING, NOW + 2 * SPACING, NOW + 3 * SPACING]);
    expect(plan.knows('a')).toBe(true);
  });

  it('hosts are planned apart: a batch’s URLs of many hosts are due together, one per host', () => {
    const plan = new HostPlan();
    const due = plan.plan(['a', 'b', 'a', 'c', 'b', 'a'], NOW, SPACING);
    expect(due).toEqual([
      NOW + SPACING,
      NOW + SPACING,
      NOW + 2 * SPACING,
      NOW + SPACING,
      NOW + 2 * SPACING,
      NOW + 3 * SPACING,
    ]);
  });

  it('goes on from where the host’s plan was, or from now when it has passed', () => {
    const plan = new HostPlan();
    plan.plan(['a', 'a'], NOW, SPACING);
    expect(plan.plan(['a'], NOW + 100, SPACING)).toEqual([NOW + 3 * SPACING]);
    const later = NOW + 60_000;
    expect(plan.plan(['a'], later, SPACING)).toEqual([later]);
  });

  it('learns the host’s pace from its paced requests: its gate’s spacing (a Crawl-delay) and its responses’ wait', () => {
    const plan = new HostPlan();
    plan.plan(['a'], NOW, SPACING);
    // The page was fetched: the host is free 3 s after its response (a Crawl-delay of 3 s), which took 200 ms.
    const pace = { freeAt: NOW + 5000, spacingMs: 3030, waitMs: 200 };
    plan.fetched('a', NOW + 2500, SPACING, pace);
    expect(plan.plan(['a', 'a'], NOW + 2600, SPACING)).toEqual([NOW + 5000, NOW + 5000 + 3230]);
    // The wait is a running mean.
    plan.fetched('a', NOW + 9000, SPACING, { freeAt: NOW + 9000, spacingMs: 3030, waitMs: 400 });
    expect(plan.plan(['a'], NOW + 9000, SPACING)).toEqual([NOW + 5000 + 2 * 3230]);
  });

  it('a fetch reported without its pace puts the host’s next URL a spacing after the report, not before', () => {
    const plan = new HostPlan();
    plan.plan(['a'], NOW, SPACING);
    plan.fetched('a', NOW + 4000, SPACING);
    expect(plan.plan(['a'], NOW + 4000, SPACING)).toEqual([NOW + 4000 + SPACING]);
    // A plan already ahead of it is kept.
    plan.fetched('a', NOW + 4100, SPACING);
    expect(plan.plan(['a'], NOW + 4100, SPACING)).toEqual([NOW + 4000 + 2 * SPACING]);
  });

  it('plans no further than the host gates’ reservation horizon', () => {
    const plan = new HostPlan();
    const hosts = Array.from({ length: 4000 }, () => 'a');
    const due = plan.plan(hosts, NOW, SPACING);
    expect(Math.max(...due)).toBe(NOW + RESERVE_HORIZON_MS);
    expect(due.filter((d) => d === NOW + RESERVE_HORIZON_MS).length).toBeGreaterThan(400);
  });

  it('forgets hosts whose plan passed a minute ago', () => {
    const plan = new HostPlan();
    plan.plan(['a'], NOW, SPACING);
    plan.plan(['b'], NOW + 120_000, SPACING);
    expect(plan.knows('a')).toBe(false);
    expect(plan.knows('b')).toBe(true);
  });
});

describe('windowMs: a narrow crawl’s URLs come in groups of about a consumer batch', () => {
  it('is a second for a broad crawl, up to five for a few hosts', () => {
    expect(windowMs(1000, SPACING)).toBe(1000);
    expect(windowMs(100, SPACING)).toBe(1000);
    expect(windowMs(50, SPACING)).toBe(2000);
    expect(windowMs(20, SPACING)).toBe(5000);
    expect(windowMs(10, SPACING)).toBe(8000);
    expect(windowMs(1, SPACING)).toBe(8000);
    // Within the consumer's wait budget, with room to spare: 8 s of the default 10, 4 of 5, never under a second.
    expect(windowMs(1, SPACING, windowCap(10_000))).toBe(8000);
    expect(windowMs(1, SPACING, windowCap(5_000))).toBe(4000);
    expect(windowMs(1, SPACING, windowCap(0))).toBe(1000);
    expect(windowMs(1, 0)).toBe(1000);
  });

  it('groups a narrow crawl’s due times at the start of their window, never before now', () => {
    const plan = new HostPlan();
    const start = 10_000_000; // a window's start
    const dues = plan.plan(
      Array.from({ length: 9 }, () => 'a'),
      start + 300,
      SPACING,
    );
    expect(plan.grouped(dues, start + 300, SPACING)).toEqual([
      ...Array.from({ length: 7 }, () => start + 300),
      start + 8000,
      start + 8000,
    ]);
    // A wait budget of 5 s: windows of 4 s.
    expect(plan.grouped(dues, start + 300, SPACING, windowCap(5000))).toEqual([
      ...Array.from({ length: 3 }, () => start + 300),
      ...Array.from({ length: 4 }, () => start + 4000),
      start + 8000,
      start + 8000,
    ]);
  });

  it('leaves a broad crawl’s due times as they are', () => {
    const plan = new HostPlan();
    const hosts = Array.from({ length: 200 }, (_, i) => `h${i}`);
    const dues = plan.plan(hosts, NOW, SPACING);
    expect(plan.grouped(dues, NOW, SPACING)).toEqual(dues);
  });
});

describe('dueDelaySeconds: a message arrives at its URL’s planned time or after it', () => {
  it('rounds up to whole seconds, allowing 50 ms early, up to Queues’ 12 hours', () => {
    expect(dueDelaySeconds(undefined, NOW)).toBe(0);
    expect(dueDelaySeconds(NOW - 5, NOW)).toBe(0);
    expect(dueDelaySeconds(NOW + 40, NOW)).toBe(0);
    expect(dueDelaySeconds(NOW + 1010, NOW)).toBe(1);
    expect(dueDelaySeconds(NOW + 1100, NOW)).toBe(2);
    expect(dueDelaySeconds(NOW + 2050, NOW)).toBe(2);
    expect(dueDelaySeconds(NOW + 86_400_000, NOW)).toBe(43_200);
  });
});
