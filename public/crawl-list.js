// @ts-check
// The home page's list of crawls: each with its status, progress, counts, rate, cost, and the schedule it is a run of;
// newest first, a page at a time.

import { h, table } from './dom.js';
import { badge, fmt, seconds, usd, when } from './ui.js';

/**
 * @typedef {import('../.types/api/responses').CrawlList['crawls'][number]} CrawlItem
 * @typedef {import('../.types/api/responses').ScheduleList['schedules'][number]} ScheduleItem
 */

/** Crawls per page of the list. */
export const LIST_PAGE = 20;

/** A bar `percent` long; its width set through the CSSOM (the CSP refuses style attributes). */
function bar(/** @type {number} */ percent) {
  const fill = h('span', {});
  fill.style.width = `${percent}%`;
  return fill;
}

/** How far a crawl is: URLs done over URLs found (100 once completed), with a bar. @param {CrawlItem} crawl */
function progress(crawl) {
  const c = crawl.counts;
  if (!c) return '–';
  const done = c.stored + c.failed + c.skipped + c.duplicates;
  const percent = crawl.status === 'completed' ? 100 : c.discovered > 0 ? Math.floor((100 * done) / c.discovered) : 0;
  return h(
    'span',
    { class: 'mini-progress', title: `${fmt(done)} of ${fmt(c.discovered)} URLs done` },
    h('span', { class: 'mini-bar', 'aria-hidden': 'true' }, bar(percent)),
    `${percent}%`,
  );
}

/** Stored, and failed when any: "1,204 · 3 failed". @param {CrawlItem} crawl */
function pages(crawl) {
  const c = crawl.counts;
  if (!c) return '–';
  return h('span', {}, fmt(c.stored), c.failed > 0 ? h('span', { class: 'bad' }, ` · ${fmt(c.failed)} failed`) : '');
}

/** What a schedule runs, in words: "every 3,600 s", "cron 0 * * * *". @param {ScheduleItem | undefined} sc */
export const cadence = (sc) => (sc ? (sc.cron ? `cron ${sc.cron}` : `every ${fmt(sc.everySeconds ?? 0)} s`) : '');

/** @param {CrawlItem[]} list @param {Map<string, ScheduleItem>} schedules */
export function crawlsTable(list, schedules) {
  const seed = (/** @type {CrawlItem} */ crawl) =>
    h(
      'a',
      { href: `#/crawls/${crawl.id}` },
      crawl.seeds[0] ?? crawl.id,
      crawl.seeds.length > 1 ? ` (+${crawl.seeds.length - 1})` : '',
    );
  const took = (/** @type {CrawlItem} */ crawl) =>
    crawl.finishedAt ? seconds(Date.parse(crawl.finishedAt) - Date.parse(crawl.createdAt)) : 'running';
  const runOf = (/** @type {CrawlItem} */ crawl) =>
    crawl.scheduleId
      ? h(
          'span',
          { title: `schedule ${crawl.scheduleId}` },
          'schedule ',
          h('span', { class: 'muted' }, cadence(schedules.get(crawl.scheduleId))),
        )
      : 'by hand';
  return table(
    'Recent crawls',
    [
      ['Seed', 'url'],
      'Status',
      'Progress',
      ['Pages stored', 'num'],
      ['Pages/s', 'num'],
      ['Cost', 'num'],
      ['Run of', 'nowrap'],
      ['Started', 'wide'],
      ['Took', 'nowrap'],
    ],
    list.map((crawl) => [
      seed(crawl),
      badge(crawl.status),
      progress(crawl),
      pages(crawl),
      crawl.pagesPerSecond === null ? '–' : crawl.pagesPerSecond.toFixed(1),
      crawl.usd === null ? '–' : usd(crawl.usd),
      runOf(crawl),
      when(crawl.createdAt),
      took(crawl),
    ]),
    'No crawls yet: start one above.',
  );
}

/**
 * Newer/older buttons over the list's cursors; `go` shows the page a cursor starts (null: the newest).
 * @param {(cursor: string | null) => void} go
 */
export function pager(go) {
  /** @type {(string | null)[]} */
  const stack = [null];
  const newer = h('button', { type: 'button', class: 'secondary', disabled: true }, '← Newer');
  const older = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Older →');
  /** @type {string | null} */
  let next = null;
  const current = () => stack.at(-1) ?? null;
  newer.addEventListener('click', () => {
    if (stack.length > 1) stack.pop();
    go(current());
  });
  older.addEventListener('click', () => {
    if (next) stack.push(next);
    go(current());
  });
  return {
    element: h('div', { class: 'row pager', hidden: true }, newer, older),
    current,
    /** After a page is shown: where the next one starts. @param {string | null} cursor */
    shown(cursor) {
      next = cursor;
      /** @type {HTMLButtonElement} */ (newer).disabled = stack.length <= 1;
      /** @type {HTMLButtonElement} */ (older).disabled = cursor === null;
      // One page of crawls in all: no buttons.
      /** @type {HTMLElement} */ (newer.parentElement).hidden = stack.length <= 1 && cursor === null;
    },
  };
}
