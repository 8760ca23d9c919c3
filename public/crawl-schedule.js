// @ts-check
// The new-crawl form's "When" group: run once now, or on a schedule (every N minutes, hours or days, or a cron
// expression), with the webhook's notifications; the schedule's part of a POST /v1/schedules body.

import { check, choice, field, int, text } from './crawl-fields.js';
import { h } from './dom.js';

const UNITS = { minutes: 60, hours: 3600, days: 86_400 };

/** @param {string} id @param {string} name @param {string} value @param {boolean} [checked] */
const radio = (id, name, value, checked = false) =>
  /** @type {HTMLInputElement} */ (h('input', { type: 'radio', id, name, value, checked }));

/**
 * The group and how to read it: `read()` is null to run once now, else the schedule's fields (without `crawl`).
 * `nextRuns` is where the next runs the API computes are shown.
 * @param {import('./crawl-fields.js').Registry} reg
 */
export function whenGroup(reg) {
  const once = radio('when-once', 'when', 'once', true);
  const scheduled = radio('when-schedule', 'when', 'schedule');
  const byPeriod = radio('repeat-every', 'repeat', 'every', true);
  const byCron = radio('repeat-cron', 'repeat', 'cron');
  const every = /** @type {HTMLInputElement} */ (int('every', 'every', 1, 527_040));
  every.removeAttribute('data-kind');
  every.value = '1';
  const unit = /** @type {HTMLSelectElement} */ (
    h('select', { id: 'every-unit' }, ...Object.keys(UNITS).map((u) => h('option', { value: u }, u)))
  );
  unit.value = 'hours';
  const cron = /** @type {HTMLInputElement} */ (text('cron', 'cron', { placeholder: '0 6 * * *' }));
  cron.removeAttribute('data-kind');
  const notify = /** @type {HTMLSelectElement} */ (
    choice('notify', 'notify', [
      ['all', 'all: every event the webhook asks for'],
      ['changes', 'changes: only page.changed (what changed)'],
    ])
  );
  notify.removeAttribute('data-kind');
  const { options, periodField, cronField, nextRuns } = scheduleOptions(reg, {
    byPeriod,
    byCron,
    every,
    unit,
    cron,
    notify,
  });
  const sync = () => {
    options.hidden = !scheduled.checked;
    periodField.hidden = !byPeriod.checked;
    cronField.hidden = byPeriod.checked;
  };
  for (const r of [once, scheduled, byPeriod, byCron]) r.addEventListener('change', sync);
  sync();
  const read = () => {
    if (!scheduled.checked) return null;
    /** @type {Record<string, unknown>} */
    const schedule = byPeriod.checked
      ? { everySeconds: Math.round(Number(every.value) * UNITS[/** @type {keyof typeof UNITS} */ (unit.value)]) }
      : { cron: cron.value.trim() };
    if (notify.value !== 'all') schedule.notify = notify.value;
    return schedule;
  };
  const element = h(
    'fieldset',
    { class: 'group', id: 'group-when' },
    h('legend', {}, 'When'),
    h('div', { class: 'checks' }, check(once, 'Run once now'), check(scheduled, 'Run on a schedule')),
    options,
  );
  return { element, read, nextRuns };
}

/**
 * The options of a schedule: period or cron expression, notifications, the next runs.
 * @param {import('./crawl-fields.js').Registry} reg
 * @param {Record<'byPeriod' | 'byCron' | 'every' | 'unit' | 'cron' | 'notify', HTMLElement>} c
 */
function scheduleOptions(reg, { byPeriod, byCron, every, unit, cron, notify }) {
  const nextRuns = h('p', { id: 'next-runs', class: 'muted', 'aria-live': 'polite' });
  const periodField = h(
    'div',
    { class: 'field-row' },
    field(reg, 'everySeconds', 'Every', every),
    h('div', { class: 'field' }, h('label', { for: 'every-unit' }, 'Unit'), unit),
  );
  const cronField = field(
    reg,
    'cron',
    'Cron expression (UTC)',
    cron,
    'minute hour day month weekday, as in 0 6 * * 1-5',
  );
  const options = h(
    'div',
    { id: 'schedule-options', hidden: true },
    h(
      'fieldset',
      { class: 'choices' },
      h('legend', {}, 'Repeat'),
      h('div', { class: 'checks' }, check(byPeriod, 'at a fixed period'), check(byCron, 'by a cron expression')),
    ),
    periodField,
    cronField,
    field(reg, 'notify', 'Webhook notifications', notify),
    nextRuns,
  );
  return { options, periodField, cronField, nextRuns };
}
