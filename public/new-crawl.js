// @ts-check
// The home page's new-crawl form: every setting of a crawl, grouped (the rarely used ones collapsed), checked by the
// API as one types (POST /v1/crawls/validate or /v1/schedules/validate: the same schema as starting it), with the
// request it will send shown live, and started now (POST /v1/crawls) or as a schedule (POST /v1/schedules).

import { json, messageOf } from './api.js';
import { readCrawl, showIssues } from './crawl-fields.js';
import { settingGroups } from './crawl-groups.js';
import { whenGroup } from './crawl-schedule.js';
import { h } from './dom.js';
import { parseSpec } from './spec-editor.js';
import { announce } from './ui.js';

/**
 * @typedef {import('../.types/api/responses').CrawlValidation} CrawlValidation
 * @typedef {import('../.types/api/responses').ScheduleValidation} ScheduleValidation
 * @typedef {import('../.types/api/responses').ScheduleList['schedules'][number]} Schedule
 * @typedef {{ path: (string | number)[], message: string }} Issue
 * @typedef {import('./crawl-fields.js').Registry} Registry
 */

const CHECK_DELAY_MS = 300;

/** The live "Request (JSON)" preview, with "Copy as curl". */
function requestPreview() {
  const route = h('p', { class: 'muted' });
  const pre = h('pre', { id: 'request-json', class: 'request', tabindex: 0, 'aria-label': 'Request body (JSON)' });
  const fallback = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { id: 'curl', readonly: true, hidden: true, 'aria-label': 'curl command' })
  );
  let command = '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      announce('curl command copied.');
    } catch {
      fallback.value = command;
      fallback.hidden = false;
      fallback.select();
      announce('The clipboard is not available: the command is selected below.');
    }
  };
  const element = h(
    'details',
    { class: 'preview', id: 'request-preview' },
    h('summary', {}, 'Request (JSON)'),
    route,
    pre,
    h('button', { type: 'button', class: 'secondary', onclick: () => void copy() }, 'Copy as curl'),
    fallback,
  );
  const show = (/** @type {string} */ path, /** @type {unknown} */ body) => {
    const text = JSON.stringify(body, null, 2);
    route.textContent = `POST ${path}`;
    pre.textContent = text;
    command = `curl -s ${location.origin}${path} -H "Authorization: Bearer $TOKEN" --json '${JSON.stringify(body).replaceAll("'", "'\\''")}'`;
    fallback.value = command;
  };
  return { element, show };
}

/**
 * The issues' summary: how many, and each with the field it is about (a link that focuses it).
 * @param {HTMLElement} box @param {ReturnType<typeof showIssues>} shown
 */
function summarize(box, shown) {
  if (shown.length === 0) return box.replaceChildren();
  const item = (/** @type {(typeof shown)[number]} */ s) => {
    const target = s.entry?.control;
    const link = target?.id
      ? h(
          'a',
          {
            href: `#${target.id}`,
            onclick: (/** @type {Event} */ e) => {
              e.preventDefault();
              target.focus();
            },
          },
          s.label,
        )
      : s.label;
    return h('li', {}, link, `: ${s.message}`);
  };
  box.replaceChildren(
    h('p', {}, shown.length === 1 ? '1 issue to fix:' : `${shown.length} issues to fix:`),
    h('ul', {}, shown.map(item)),
  );
}

/**
 * What the form would send now: the route, the body, and the spec's syntax error (the body then goes without it).
 * @param {HTMLFormElement} form @param {() => Record<string, unknown> | null} when
 */
function current(form, when) {
  /** @type {string | undefined} */
  let syntax;
  const crawl = readCrawl(form, (text) => {
    const parsed = parseSpec(text);
    syntax = parsed.error;
    return parsed.spec;
  });
  const schedule = when();
  return schedule
    ? { path: '/v1/schedules', body: { ...schedule, crawl }, syntax, prefix: 'crawl' }
    : { path: '/v1/crawls', body: crawl, syntax, prefix: null };
}

/**
 * The issues of an answer of a validate route, with the spec's syntax error, paths relative to the crawl's fields
 * (a schedule's ["crawl", "maxPages"] is the form's "maxPages").
 * @param {CrawlValidation | ScheduleValidation} answer @param {ReturnType<typeof current>} state @returns {Issue[]}
 */
function issuesOf(answer, state) {
  const issues = answer.valid ? [] : answer.issues;
  const mapped = issues.map((i) => (state.prefix && i.path[0] === state.prefix ? { ...i, path: i.path.slice(1) } : i));
  return state.syntax ? [{ path: ['extract'], message: state.syntax }, ...mapped] : mapped;
}

/**
 * The form that starts a crawl, or creates a schedule; `scheduled` is told of a new schedule (the home view lists
 * and highlights it).
 * @param {{ scheduled: (schedule: Schedule) => void }} options
 */
export function newCrawlForm(options) {
  /** @type {Registry} */
  const reg = new Map();
  const when = whenGroup(reg);
  const preview = requestPreview();
  const summary = h('div', { id: 'form-issues', class: 'issues', 'aria-live': 'polite' });
  const status = h('p', { id: 'check-status', class: 'muted', role: 'status' });
  const submit = h('button', { type: 'submit', id: 'start' }, 'Start crawl');
  const startError = h('p', { id: 'start-error', class: 'error', role: 'alert' });
  const done = h('p', { id: 'start-done', class: 'ok', role: 'status' });
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { id: 'new-crawl', novalidate: true },
      ...settingGroups(reg),
      when.element,
      preview.element,
      summary,
      status,
      h('div', { class: 'row' }, submit),
      startError,
      done,
    )
  );
  const ui = { form, reg, when, preview, summary, status, submit, startError, done, scheduled: options.scheduled };
  const checker = liveCheck(ui);
  form.addEventListener('input', checker.soon);
  form.addEventListener('change', checker.soon);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submitForm(ui, checker);
  });
  checker.preview();
  return form;
}

/** @typedef {{ form: HTMLFormElement, reg: Registry, when: ReturnType<typeof whenGroup>, preview: ReturnType<typeof requestPreview>, summary: HTMLElement, status: HTMLElement, submit: HTMLElement, startError: HTMLElement, done: HTMLElement, scheduled: (schedule: Schedule) => void }} FormParts */

/**
 * Checks the form with the API ~300 ms after the last change (answers to older checks are dropped), and shows the
 * issues, or that it is valid (a schedule's next runs too); `check` does it now and returns the issues.
 * @param {FormParts} ui
 */
function liveCheck(ui) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let seq = 0;
  const previewNow = () => {
    const state = current(ui.form, ui.when.read);
    ui.preview.show(state.path, state.body);
    ui.submit.textContent = state.prefix ? 'Create schedule' : 'Start crawl';
    return state;
  };
  const check = async () => {
    clearTimeout(timer);
    const mine = ++seq;
    const state = previewNow();
    const answer = /** @type {CrawlValidation | ScheduleValidation} */ (
      await json(`${state.path}/validate`, { method: 'POST', body: JSON.stringify(state.body) })
    );
    if (mine !== seq) return null;
    const issues = issuesOf(answer, state);
    summarize(ui.summary, showIssues(ui.reg, issues));
    ui.status.textContent = issues.length === 0 ? 'The settings are valid.' : '';
    if (issues.length === 0) ui.startError.textContent = '';
    ui.when.nextRuns.textContent =
      answer.valid && 'nextRuns' in answer
        ? `Next runs: ${answer.nextRuns.map((t) => new Date(t).toLocaleString()).join(', ')}`
        : '';
    return { state, issues };
  };
  const soon = () => {
    previewNow();
    clearTimeout(timer);
    timer = setTimeout(() => {
      check().catch((error) => {
        ui.status.textContent = `The settings could not be checked: ${messageOf(error)}. They are checked again when you start.`;
      });
    }, CHECK_DELAY_MS);
  };
  return { soon, check, preview: previewNow };
}

/**
 * Starts the crawl (then opens it) or creates the schedule (then lists it): checked first, and not sent while the
 * API finds issues, which are shown instead.
 * @param {FormParts} ui @param {ReturnType<typeof liveCheck>} checker
 */
async function submitForm(ui, checker) {
  ui.startError.textContent = '';
  ui.done.textContent = '';
  ui.submit.setAttribute('disabled', '');
  try {
    const checked = await checker.check();
    if (!checked) return;
    const { state, issues } = checked;
    if (issues.length > 0) {
      ui.startError.textContent = `Not ${state.prefix ? 'created' : 'started'}: fix the ${issues.length === 1 ? 'issue' : `${issues.length} issues`} below.`;
      const first = [...ui.reg.values()].find((f) => f.control.getAttribute('aria-invalid') === 'true');
      first?.control.focus();
      return;
    }
    const created = await json(state.path, { method: 'POST', body: JSON.stringify(state.body) });
    if (!state.prefix) {
      location.hash = `#/crawls/${/** @type {{ id: string }} */ (created).id}`;
      return;
    }
    const schedule = /** @type {Schedule} */ (created);
    if (schedule.lastCrawlId) location.hash = `#/crawls/${schedule.lastCrawlId}`;
    ui.done.textContent = `Schedule created: ${schedule.cron ? `cron ${schedule.cron}` : `every ${schedule.everySeconds} s`}, first run at ${new Date(schedule.nextRunAt).toLocaleString()} (the next cron trigger). It is listed under Schedules.`;
    ui.scheduled(schedule);
  } catch (error) {
    ui.startError.textContent = `Could not ${ui.when.read() ? 'create the schedule' : 'start the crawl'}: ${messageOf(error)}`;
  } finally {
    ui.submit.removeAttribute('disabled');
  }
}
