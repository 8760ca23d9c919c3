// @ts-check
// What changed since the previous crawl: a crawl's changed pages, and one page's diff. Text from crawled pages is
// only ever set as text.

import { h, table } from './dom.js';

/**
 * @typedef {import('../.types/api/responses').ChangeList} ChangeList
 * @typedef {import('../.types/api/responses').PageDiff} PageDiff
 * @typedef {{ new: number, changed: number, unchanged: number, gone: number, unreached?: number,
 *   unreachedBefore?: number, provisional?: boolean }} ChangeCounts
 */

const number = new Intl.NumberFormat();

/** @param {string} kind */
const kindBadge = (kind) => h('span', { class: `badge change-${kind}` }, kind);

/**
 * The changes card's content: counts by kind, then the pages that are new, changed or gone.
 * @param {ChangeCounts} counts @param {ChangeList} list @param {(url: string) => Node} short
 * @param {(url: string) => string} pageLink
 */
export function changesView(counts, list, short, pageLink) {
  const unreached = counts.unreached ?? 0;
  const before = counts.unreachedBefore ?? 0;
  /** @type {[string, number][]} */
  const shown = [
    ['new', counts.new],
    ['changed', counts.changed],
    ['gone', counts.gone],
    ['unchanged', counts.unchanged],
    ...(unreached > 0 ? /** @type {[string, number][]} */ ([['unreached', unreached]]) : []),
    ...(before > 0 ? /** @type {[string, number][]} */ ([['unreachedBefore', before]]) : []),
  ];
  const summary = h(
    'p',
    { class: 'change-counts' },
    shown.flatMap(([kind, n], i) => [i > 0 ? ' · ' : '', kindBadge(kind), ` ${number.format(n)}`]),
  );
  const notes = [
    counts.provisional
      ? 'Provisional: a crawl of the two is still running; pages it has not reached yet count as unreached.'
      : '',
    unreached > 0
      ? `Unreached: ${number.format(unreached)} pages the previous crawl stored that this one did not reach (maxPages, maxDepth, cancelled, or failed): not gone.`
      : '',
    before > 0
      ? `Unreached before: ${number.format(before)} pages this crawl stored that the previous one did not reach: not new.`
      : '',
  ].filter((n) => n !== '');
  const rows = list.changes.map((c) => [
    kindBadge(c.kind),
    c.kind === 'gone' ? short(c.url) : h('a', { href: pageLink(c.url) }, short(c.url)),
    c.title ?? '',
  ]);
  const more = list.cursor ? h('p', { class: 'muted' }, `The first ${rows.length} are shown.`) : null;
  const since = list.previousCrawlId
    ? h(
        'p',
        { class: 'muted' },
        'Compared with ',
        h('a', { href: `#/crawls/${list.previousCrawlId}` }, 'the previous crawl'),
        '.',
      )
    : h('p', { class: 'muted' }, 'The first run: nothing to compare with.');
  return h(
    'div',
    {},
    summary,
    ...notes.map((n) => h('p', { class: 'muted' }, n)),
    since,
    table('Changed pages', ['Change', ['URL', 'url'], ['Title', 'wide']], rows, 'Nothing changed.'),
    more,
  );
}

/** @param {unknown} value */
const shown = (value) => (value === undefined ? '–' : JSON.stringify(value));

/**
 * A page's diff against the previous crawl: counts, changed fields, and the unified diff, its lines marked.
 * @param {PageDiff} diff
 */
export function diffView(diff) {
  const head = h(
    'p',
    {},
    kindBadge(diff.kind),
    ' ',
    h('span', { class: 'diff-added' }, `+${number.format(diff.added)}`),
    ' ',
    h('span', { class: 'diff-removed' }, `−${number.format(diff.removed)}`),
    h('span', { class: 'muted' }, ` lines of ${diff.format}`),
  );
  const fields = diff.fields.length
    ? table(
        'Changed fields',
        ['Field', 'Before', 'After'],
        diff.fields.map((f) => [f.name, shown(f.before), shown(f.after)]),
      )
    : null;
  if (diff.tooLarge)
    return h('div', {}, head, fields, h('p', { class: 'muted' }, 'More than 1,000 lines differ: no diff is shown.'));
  if (!diff.diff) return h('div', {}, head, fields, h('p', { class: 'muted' }, 'The content did not change.'));
  const lines = diff.diff.split('\n').map((line) => {
    const cls = line.startsWith('@@')
      ? 'hunk'
      : line.startsWith('+')
        ? 'add'
        : line.startsWith('-')
          ? 'del'
          : undefined;
    return h('span', { class: cls }, line, '\n');
  });
  return h('div', {}, head, fields, h('pre', { class: 'diff', 'aria-label': 'Unified diff', tabindex: 0 }, lines));
}
