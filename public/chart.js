// @ts-check
// The crawl's activity chart: pages fetched and URLs failed per interval, as stacked bars with a y axis (pages per
// interval, its unit said), an x axis of clock times, a legend, a tooltip that follows the pointer or the keyboard,
// and the same figures as a table for screen readers.

import { h, table } from './dom.js';
import { clock, fmt } from './ui.js';

/** @typedef {import('../.types/api/responses').CrawlStats['series'][number]} Point */

const NS = 'http://www.w3.org/2000/svg';
/** Bars shown: the most recent ones. */
const MAX_BARS = 120;

/** @param {string} tag @param {Record<string, string | number>} attrs */
function svgEl(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

/** A round top for the y axis at or above `max`: 1, 2 or 5 times a power of ten. */
function niceMax(/** @type {number} */ max) {
  const power = 10 ** Math.floor(Math.log10(Math.max(1, max)));
  return [1, 2, 5, 10].map((f) => f * power).find((v) => v >= max) ?? max;
}

/** "5 s", "1 min", "2 h": an interval in words. */
const unitOf = (/** @type {number} */ s) =>
  s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`;

/** The bars, gridlines at 0, half and the top, one column per point. @param {Point[]} points @param {number} top */
function plot(points, top) {
  const svg = svgEl('svg', { class: 'chart', viewBox: `0 0 ${points.length} 100`, preserveAspectRatio: 'none' });
  svg.setAttribute('aria-hidden', 'true');
  for (const y of [0, 50, 100]) svg.append(svgEl('line', { class: 'grid', x1: 0, x2: points.length, y1: y, y2: y }));
  points.forEach((p, i) => {
    const fetched = (p.fetched / top) * 100;
    const failed = (p.failed / top) * 100;
    const column = svgEl('g', { 'data-index': i });
    if (fetched > 0)
      column.append(svgEl('rect', { class: 'fetched', x: i + 0.1, width: 0.8, y: 100 - fetched, height: fetched }));
    if (failed > 0)
      column.append(
        svgEl('rect', { class: 'failed', x: i + 0.1, width: 0.8, y: 100 - fetched - failed, height: failed }),
      );
    column.append(svgEl('rect', { class: 'hit', x: i, width: 1, y: 0, height: 100 }));
    svg.append(column);
  });
  return svg;
}

/** What the tooltip says of one point. @param {Point} p @param {number} interval */
const describe = (p, interval) =>
  `${clock(p.at)}: ${fmt(p.fetched)} fetched, ${fmt(p.failed)} failed in ${unitOf(interval)}`;

/** Shows the point under the pointer, or the one the arrow keys chose, in the tooltip. */
function tooltip(/** @type {HTMLElement} */ area, /** @type {Point[]} */ points, /** @type {number} */ interval) {
  const tip = h('div', { class: 'chart-tip', role: 'status', hidden: true });
  let index = points.length - 1;
  const show = (/** @type {number} */ i) => {
    index = Math.max(0, Math.min(points.length - 1, i));
    const p = points[index];
    if (!p) return;
    tip.textContent = describe(p, interval);
    tip.hidden = false;
    tip.style.left = `${((index + 0.5) / points.length) * 100}%`;
  };
  area.addEventListener('pointermove', (event) => {
    const box = area.getBoundingClientRect();
    show(Math.floor(((event.clientX - box.left) / box.width) * points.length));
  });
  area.addEventListener('pointerleave', () => {
    tip.hidden = true;
  });
  area.addEventListener('focus', () => show(index));
  area.addEventListener('blur', () => {
    tip.hidden = true;
  });
  area.addEventListener('keydown', (event) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, Home: -points.length, End: points.length }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    show(index + step);
  });
  return tip;
}

/** The chart of a crawl's series (interval in seconds). */
export function chart(/** @type {Point[]} */ series, /** @type {number} */ interval) {
  const points = series.slice(-MAX_BARS);
  if (points.length === 0) return h('p', { class: 'muted' }, 'No activity yet.');
  const top = niceMax(Math.max(1, ...points.map((p) => p.fetched + p.failed)));
  const total = points.reduce((n, p) => n + p.fetched, 0);
  const unit = `pages per ${unitOf(interval)}`;
  const label = `Pages fetched per ${unitOf(interval)}: ${fmt(total)} from ${clock(points[0]?.at ?? '')} to ${clock(points.at(-1)?.at ?? '')}. Arrow keys read each interval.`;
  const area = h('div', { class: 'chart-area', tabindex: 0, role: 'img', 'aria-label': label }, plot(points, top));
  area.append(tooltip(area, points, interval));
  const mid = points[Math.floor((points.length - 1) / 2)];
  return h(
    'figure',
    { class: 'chart-box' },
    h(
      'div',
      { class: 'chart-y', 'aria-hidden': 'true' },
      h('span', {}, fmt(top)),
      h('span', {}, fmt(top / 2)),
      h('span', {}, '0'),
    ),
    area,
    h(
      'div',
      { class: 'chart-x', 'aria-hidden': 'true' },
      h('span', {}, clock(points[0]?.at ?? '')),
      points.length > 2 && mid ? h('span', {}, clock(mid.at)) : null,
      h('span', {}, clock(points.at(-1)?.at ?? '')),
    ),
    h(
      'figcaption',
      {},
      h('span', { class: 'key fetched' }, 'fetched'),
      ' ',
      h('span', { class: 'key failed' }, 'failed'),
      ` · y: ${unit} · x: time`,
    ),
    seriesTable(points, interval),
  );
}

/** The figures behind the bars, for who cannot see them (and anyone who opens it). */
function seriesTable(/** @type {Point[]} */ points, /** @type {number} */ interval) {
  const rows = points.filter((p) => p.fetched + p.failed > 0).map((p) => [clock(p.at), fmt(p.fetched), fmt(p.failed)]);
  return h(
    'details',
    { class: 'chart-data' },
    h('summary', {}, 'Figures as a table'),
    table(
      `Pages per ${unitOf(interval)}`,
      ['Interval from', ['Fetched', 'num'], ['Failed', 'num']],
      rows,
      'No pages yet.',
    ),
  );
}
