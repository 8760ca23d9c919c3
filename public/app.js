// @ts-check
// The edgecrawl dashboard: plain DOM, no framework. Every figure comes from the /v1 API with the token the
// operator typed, kept for the browser session and shared by its tabs (session.js). Text from crawled pages is only
// ever set as text.

import { ApiError, call, json, messageOf, onUnauthorized } from './api.js';
import { changesView } from './changes.js';
import { chart } from './chart.js';
import { cadence, crawlsTable, LIST_PAGE, pager } from './crawl-list.js';
import { loadCrawl } from './crawl-state.js';
import { h, table } from './dom.js';
import { newCrawlForm } from './new-crawl.js';
import { pageView } from './page-view.js';
import { pagesView } from './pages.js';
import { forget, remember, sessionToken, shareWithTabs, token } from './session.js';
import { announce, badge, byId, card, clock, fmt, loading, seconds, shortener, usd, when } from './ui.js';

/** @typedef {import('./dom.js').Child} Child */

const LIVE_MS = 1000;
const IDLE_MS = 5000;

/**
 * The API's answers, typed from the schemas that document them (src/api/responses.ts, declared in .types/ by `npm run typecheck`).
 * @typedef {import('../.types/api/responses').CrawlView['counts']} Counts
 * @typedef {import('../.types/api/responses').CrawlList['crawls'][number]} CrawlItem
 * @typedef {import('../.types/api/responses').ScheduleList['schedules'][number]} ScheduleItem
 * @typedef {import('../.types/api/responses').CrawlStats['series'][number]} Point
 * @typedef {import('../.types/api/responses').CrawlStats} Stats
 * @typedef {import('../.types/api/responses').HostList['hosts'][number]} HostState
 * @typedef {import('../.types/api/responses').PageList['pages'][number]} Page
 * @typedef {import('../.types/api/responses').ErrorList['errors'][number]} ErrorItem
 * @typedef {import('../.types/api/responses').CrawlUsage} Usage
 * @typedef {{ calls: number, cached: number, selectorPages: number, tokensIn: number, tokensOut: number, usd: number }} ModelUsage
 * @typedef {import('../.types/api/responses').WarcExport} WarcExport
 * @typedef {import('../.types/api/responses').CrawlView} CrawlView
 * @typedef {import('../.types/api/responses').ChangeList} ChangeList
 * @typedef {import('../.types/api/responses').PageDiff} PageDiff
 */

// ---- login ----

/**
 * Shows the login form; `everywhere` (the Log out button): every tab of the session forgets the token too.
 * @param {string} [message] @param {boolean} [everywhere]
 */
function logout(message, everywhere = false) {
  forget(everywhere);
  stopTimer();
  byId('view').replaceChildren();
  byId('login').hidden = false;
  byId('logout').hidden = true;
  byId('login-error').textContent = message ?? '';
  byId('token').focus();
}

async function login(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ (byId('token'));
  remember(input.value.trim());
  try {
    await call('/v1/crawls?limit=1');
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401))
      byId('login-error').textContent = `Could not reach the API: ${String(error)}`;
    return;
  }
  input.value = '';
  byId('login').hidden = true;
  byId('logout').hidden = false;
  route();
}

// ---- views ----

/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
function stopTimer() {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  byId('offline').hidden = true;
}

/** Renders the view the URL's hash names, and keeps it fresh. */
function route() {
  stopTimer();
  if (!token()) return logout();
  const page = /^#\/crawls\/([0-9a-f-]{36})\/page\?url=([^&]+)(?:&tab=([a-z-]+))?$/.exec(location.hash);
  if (page) return void pageView(page[1] ?? '', decodeURIComponent(page[2] ?? ''), page[3]);
  const browse = /^#\/crawls\/([0-9a-f-]{36})\/pages(?:\?(.*))?$/.exec(location.hash);
  if (browse) return void pagesView(browse[1] ?? '', new URLSearchParams(browse[2] ?? ''), route);
  const match = /^#\/crawls\/([0-9a-f-]{36})$/.exec(location.hash);
  if (match) void crawlView(match[1] ?? '');
  else void homeView();
}

/** The schedule the form just created, highlighted in the list. */
let newSchedule = '';

/** @param {ScheduleItem[]} rows */
function schedulesTable(rows, /** @type {() => Promise<void>} */ refresh) {
  const remove = async (/** @type {ScheduleItem} */ sc) => {
    if (!confirm(`Delete the schedule of ${sc.crawl.seeds[0] ?? sc.id}? Its crawls are kept.`)) return;
    try {
      await json(`/v1/schedules/${sc.id}`, { method: 'DELETE' });
      announce('Schedule deleted.');
      await refresh();
    } catch (error) {
      announce(`Could not delete the schedule: ${messageOf(error)}`);
    }
  };
  return table(
    'Schedules',
    ['Seed', 'Runs', 'Next run', ['Last crawl', 'wide'], ''],
    rows.map((sc) => [
      sc.id === newSchedule
        ? h('strong', { class: 'new-schedule', id: `schedule-${sc.id}` }, sc.crawl.seeds[0] ?? '', ' (new)')
        : (sc.crawl.seeds[0] ?? ''),
      cadence(sc),
      when(sc.nextRunAt),
      sc.lastCrawlId ? h('a', { href: `#/crawls/${sc.lastCrawlId}` }, when(sc.lastRunAt)) : '–',
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          'aria-label': `Delete the schedule of ${sc.crawl.seeds[0] ?? sc.id}`,
          onclick: () => void remove(sc),
        },
        'Delete',
      ),
    ]),
    'No schedules: create one above with "Run on a schedule".',
  );
}

/**
 * The new-crawl form (about a screen tall) behind a "New crawl" button: the crawls come first. The button shows it
 * above the list, and hides it again.
 * @param {Parameters<typeof newCrawlForm>[0]} options
 */
function newCrawlCard(options) {
  const form = card('new', 'New crawl', newCrawlForm(options));
  form.id = 'new';
  form.hidden = true;
  const toggle = h(
    'button',
    { type: 'button', id: 'new-toggle', 'aria-expanded': 'false', 'aria-controls': 'new' },
    'New crawl',
  );
  toggle.addEventListener('click', () => {
    form.hidden = !form.hidden;
    toggle.setAttribute('aria-expanded', String(!form.hidden));
    if (!form.hidden) /** @type {HTMLElement | null} */ (form.querySelector('textarea, input'))?.focus();
  });
  return { toggle, form };
}

async function homeView() {
  const crawls = h('div', { id: 'crawls' }, loading());
  const schedules = h('div', { id: 'schedules' }, loading());
  const start = newCrawlCard({
    scheduled: (schedule) => {
      newSchedule = schedule.id;
      void refresh().then(() => document.getElementById(`schedule-${schedule.id}`)?.scrollIntoView());
    },
  });
  byId('view').replaceChildren(
    h('div', { class: 'row heading' }, h('h1', {}, 'Crawls'), start.toggle),
    start.form,
    card('list', 'Recent crawls', crawls),
    card('schedules', 'Schedules', schedules),
  );
  const pages = pager(() => void refresh().catch((error) => announce(messageOf(error))));
  const list = h('div', {}, loading());
  crawls.replaceChildren(list, pages.element);
  const refresh = async () => {
    const cursor = pages.current();
    const [c, s] = await Promise.all([
      json(`/v1/crawls?limit=${LIST_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
      json('/v1/schedules?limit=100'),
    ]);
    const found = /** @type {{ crawls: CrawlItem[], cursor: string | null }} */ (c);
    const scheduleList = /** @type {{ schedules: ScheduleItem[] }} */ (s).schedules;
    list.replaceChildren(crawlsTable(found.crawls, new Map(scheduleList.map((sc) => [sc.id, sc]))));
    pages.shown(found.cursor);
    schedules.replaceChildren(schedulesTable(scheduleList, refresh));
  };
  await keepFresh(refresh, () => IDLE_MS);
}

/** Runs refresh now and again after each wait, while its view is shown; errors show and do not stop it. */
async function keepFresh(/** @type {() => Promise<void>} */ refresh, /** @type {() => number} */ next) {
  const hash = location.hash;
  const banner = byId('offline');
  const tick = async () => {
    try {
      await refresh();
      banner.hidden = true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return;
      // What is shown stays, marked as no longer fresh; the next tick tries again.
      banner.textContent = `Could not refresh (${messageOf(error)}). The figures below may be out of date; trying again…`;
      banner.hidden = false;
    }
    if (location.hash === hash && token()) timer = setTimeout(tick, next());
    else banner.hidden = true;
  };
  await tick();
}

/** Downloads an export (the API wants the token, so a plain link cannot). */
async function download(/** @type {string} */ path, /** @type {string} */ filename) {
  const blob = await (await call(path)).blob();
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The crawl's buttons: cancel, retry all, exports. `act` runs one, shows its error and refreshes.
 * @param {string} base @param {string} id @param {(action: () => Promise<unknown>, done: string) => Promise<void>} act
 */
function crawlActions(base, id, act) {
  const cancel = h(
    'button',
    {
      type: 'button',
      class: 'danger',
      id: 'cancel',
      onclick: () => void act(() => json(base, { method: 'DELETE' }), 'Crawl cancelled.'),
    },
    'Cancel crawl',
  );
  const retryAll = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      id: 'retry-all',
      onclick: () => void act(() => json(`${base}/retry-errors`, { method: 'POST' }), 'Failed URLs queued again.'),
    },
    'Retry all failed',
  );
  const exports = ['jsonl', 'csv'].map((format) =>
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: () =>
          void act(
            () => download(`${base}/export?format=${format}`, `${id}.${format}`),
            `${format} export downloaded.`,
          ),
      },
      `Export ${format.toUpperCase()}`,
    ),
  );
  const writeWarc = async () => {
    const made = /** @type {WarcExport} */ (await json(`${base}/exports`, { method: 'POST' }));
    await download(made.download, made.file);
  };
  const warc = h(
    'button',
    { type: 'button', class: 'secondary', onclick: () => void act(writeWarc, 'WARC written to R2 and downloaded.') },
    'Export WARC',
  );
  return { cancel, retryAll, all: [cancel, retryAll, ...exports, warc] };
}

/** The progress card's parts, filled by renderProgress. */
function progressParts() {
  const bar = h('div', {});
  return {
    status: h('span', { id: 'crawl-status' }),
    bar,
    progress: h(
      'div',
      {
        class: 'progress',
        id: 'progress',
        role: 'progressbar',
        'aria-label': 'Crawl progress',
        'aria-valuemin': 0,
        'aria-valuemax': 100,
        'aria-valuenow': 0,
      },
      bar,
    ),
    text: h('p', { id: 'progress-text', class: 'muted' }),
    figures: h('dl', { class: 'stats' }),
    chart: h('div', { id: 'chart' }),
  };
}

/** @param {ReturnType<typeof progressParts>} parts @param {Stats} s @param {Usage} u */
function renderProgress(parts, s, u) {
  const c = s.counts;
  const done = c.stored + c.failed + c.skipped + (c.duplicates ?? 0);
  const percent = s.status === 'completed' ? 100 : c.discovered > 0 ? Math.floor((100 * done) / c.discovered) : 0;
  parts.bar.style.width = `${percent}%`;
  parts.progress.setAttribute('aria-valuenow', String(percent));
  parts.progress.setAttribute('aria-valuetext', `${percent}%`);
  parts.text.textContent = `${percent}% · ${fmt(done)} of ${fmt(c.discovered)} URLs done, ${fmt(s.pending)} pending`;
  const figure = (/** @type {string} */ label, /** @type {string} */ value) =>
    h('div', {}, h('dt', {}, label), h('dd', {}, value));
  parts.figures.replaceChildren(
    figure('pages/s now', s.status === 'running' ? s.rate.pagesPerSecond.toFixed(1) : '–'),
    figure('pages/s average', s.rate.averagePagesPerSecond.toFixed(1)),
    figure('fetched', fmt(c.fetched)),
    figure('stored', fmt(c.stored)),
    figure('failed', fmt(c.failed)),
    figure('skipped', fmt(c.skipped)),
    figure('duplicates', fmt(c.duplicates ?? 0)),
    figure('rendered', fmt(u.renders)),
    figure('browser time', `${u.operations.browserSeconds.toFixed(1)} s`),
    figure('cost so far', usd(u.estimate.usd)),
    figure('$ per million pages', u.estimate.usdPerMillionPages === null ? '–' : usd(u.estimate.usdPerMillionPages)),
    ...modelFigures(u, figure),
  );
  redrawChart(parts.chart, s);
}

/**
 * The language model's figures (formats json and summary), when it did anything for the crawl: calls, answers
 * reused from the cache, pages read by learned selectors, tokens, and what the calls cost (in the cost so far).
 * @param {Usage & { model?: ModelUsage }} u @param {(label: string, value: string) => HTMLElement} figure
 */
function modelFigures(u, figure) {
  const m = u.model;
  if (!m || m.calls + m.cached + m.selectorPages === 0) return [];
  return [
    figure('model calls', fmt(m.calls)),
    figure('model answers cached', fmt(m.cached)),
    figure('pages read by selectors', fmt(m.selectorPages)),
    figure('model tokens in / out', `${fmt(m.tokensIn)} / ${fmt(m.tokensOut)}`),
    figure('model cost', usd(u.estimate.breakdown.model ?? m.usd)),
  ];
}

/**
 * Draws the chart again when its figures changed, keeping the operator's place: the table left open, the focus.
 * @param {HTMLElement} box @param {Stats} s
 */
function redrawChart(box, s) {
  const key = JSON.stringify([s.interval, s.series]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const wasOpen = box.querySelector('details')?.hasAttribute('open') ?? false;
  const hadFocus = box.contains(document.activeElement);
  box.replaceChildren(chart(s.series, s.interval));
  if (wasOpen) box.querySelector('details')?.setAttribute('open', '');
  if (hadFocus) /** @type {HTMLElement | null} */ (box.querySelector('.chart-area'))?.focus();
}

/**
 * What one origin's robots.txt says, in words: its rules, or allow-all and why (a 404: there is none), or why it
 * could not be read; the origin first when the host has several (ports, http and https).
 * @param {HostState['robots'][number]} r @param {boolean} named
 */
function robotsLabel(r, named) {
  const kind = { rules: 'rules', 'allow-all': 'none: all allowed', unreachable: 'unreachable' }[r.kind];
  const why = r.reason ? ` (${r.reason})` : '';
  const delay = r.crawlDelayMs ? `, crawl-delay ${r.crawlDelayMs} ms` : '';
  return `${named ? `${r.origin}: ` : ''}${kind}${why}${delay}`;
}

/** @param {HostState[]} hs */
function hostsTable(hs) {
  const robots = (/** @type {HostState} */ x) =>
    x.robots.map((r) => robotsLabel(r, x.robots.length > 1)).join('; ') || '–';
  return table(
    'Hosts and politeness',
    ['Host', ['Pages', 'num'], ['In flight', 'num'], ['Next slot', 'wide'], 'Backing off', ['robots.txt', 'wide']],
    hs.map((x) => [
      x.host,
      fmt(x.pages),
      fmt(x.inflight),
      seconds(x.nextSlotInMs),
      x.blockedForMs > 0 ? seconds(x.blockedForMs) : 'no',
      robots(x),
    ]),
  );
}

/**
 * The crawl's errors, each with its details (see errorDetails).
 * @param {ErrorItem[]} es @param {Parameters<typeof errorDetails>[1]} ctx
 */
const errorsView = (es, ctx) =>
  es.length === 0 ? h('p', { class: 'muted' }, 'No errors.') : h('div', {}, ...es.map((e) => errorDetails(e, ctx)));

/**
 * One error, with its details and, for a failed URL, a button to try it again.
 * @param {ErrorItem} e @param {{ open: Set<string>, short: (url: string) => Node, retry: ((url: string) => void) | null }} ctx
 */
function errorDetails(e, ctx) {
  const details = h(
    'details',
    {
      open: ctx.open.has(e.url),
      ontoggle: () =>
        details instanceof HTMLDetailsElement && details.open ? ctx.open.add(e.url) : ctx.open.delete(e.url),
    },
    h('summary', {}, `${e.outcome === 'failed' ? '✖ failed' : '– skipped'}: `, ctx.short(e.url), ` — ${e.reason}`),
    h(
      'dl',
      {},
      ...[
        ['URL', e.url],
        ['Outcome', e.outcome],
        ['Reason', e.reason],
        ['Code', e.code],
        ['HTTP status', e.httpStatus === null ? '–' : String(e.httpStatus)],
        ['Attempts', String(e.attempts)],
        ['When', when(e.at)],
      ].flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]),
    ),
    e.outcome === 'failed' && ctx.retry
      ? h('button', { type: 'button', class: 'secondary', onclick: () => ctx.retry?.(e.url) }, 'Retry this URL')
      : null,
  );
  return details;
}

/**
 * Runs an action from a button: shows its error in `errorBox`, or announces `done` and refreshes.
 * @param {HTMLElement} errorBox @param {() => Promise<void>} refresh
 */
function actionRunner(errorBox, refresh) {
  return async (/** @type {() => Promise<unknown>} */ action, /** @type {string} */ done) => {
    errorBox.textContent = '';
    try {
      await action();
      announce(done);
      await refresh();
    } catch (error) {
      errorBox.textContent = messageOf(error);
    }
  };
}

/**
 * The crawl page's layout; returns the boxes that refreshes fill.
 * @param {string} id @param {CrawlView['config']} config @param {ReturnType<typeof progressParts>} parts @param {HTMLElement[]} actions @param {HTMLElement} actionError
 * @param {boolean} recrawl
 */
function crawlLayout(id, config, parts, actions, actionError, recrawl) {
  const boxes = {
    changes: h('div', {}, loading()),
    statuses: h('div', {}),
    reasons: h('div', {}),
    hosts: h('div', {}),
    recent: h('div', {}),
    errors: h('div', { id: 'errors' }),
  };
  const progress = [
    h('div', { class: 'row' }, parts.status),
    parts.progress,
    parts.text,
    parts.figures,
    parts.chart,
    h('div', { class: 'row' }, ...actions),
    actionError,
  ];
  byId('view').replaceChildren(
    h('p', {}, h('a', { href: '#/' }, '← All crawls')),
    h(
      'h1',
      { id: 'crawl-title' },
      config.seeds[0] ?? id,
      config.seeds.length > 1 ? ` (+${config.seeds.length - 1} seeds)` : '',
    ),
    h('p', { class: 'muted' }, `Crawl ${id}`),
    card('progress', 'Progress', ...progress),
    ...(recrawl ? [card('changes', 'Changes since the previous crawl', boxes.changes)] : []),
    h(
      'div',
      { class: 'grid' },
      card('statuses', 'HTTP statuses', boxes.statuses),
      card('reasons', 'Errors by reason and code', boxes.reasons),
    ),
    card('hosts', 'Hosts and politeness', boxes.hosts),
    card(
      'recent',
      'Recent pages',
      boxes.recent,
      h('p', {}, h('a', { href: `#/crawls/${id}/pages` }, 'Browse all pages')),
    ),
    card('errors', 'Errors', boxes.errors),
    settingsCard(config),
  );
  return boxes;
}

/**
 * What the crawl is let in with, as the API shows it: the hosts they go to, the headers' and cookies' names, whether
 * basic credentials were given, the login page. The API never answers a value; nor is one shown here.
 * @param {CrawlView['config']['credentials']} credentials
 */
function credentialsList(credentials) {
  if (!credentials) return null;
  const item = (/** @type {string} */ label, /** @type {string} */ value) =>
    h('div', {}, h('dt', {}, label), h('dd', {}, value));
  const cookies = credentials.cookies.map((c) => (c.domain ? `${c.name} (${c.domain})` : c.name));
  return h(
    'div',
    {},
    h('h3', {}, 'Credentials'),
    h(
      'dl',
      { class: 'essentials', id: 'credentials' },
      item('Sent to', credentials.hosts.join(', ')),
      item('Headers', credentials.headers.join(', ') || 'none'),
      item('Cookies', cookies.join(', ') || 'none'),
      item('Basic credentials', credentials.authenticate ? 'yes' : 'no'),
      credentials.login ? item('Login page', credentials.login.url) : null,
    ),
    h('p', { class: 'muted' }, 'Names only: their values are kept sealed and never shown.'),
  );
}

/** The settings the crawl runs with, as the API shows them (its request with the defaults filled in). */
function settingsCard(/** @type {CrawlView['config']} */ config) {
  const text = JSON.stringify(config, null, 2);
  const copy = async () => {
    await navigator.clipboard.writeText(text).then(
      () => announce('Settings copied.'),
      () => announce('Could not copy: select the text instead.'),
    );
  };
  return card(
    'settings',
    'Settings',
    credentialsList(config.credentials),
    h(
      'details',
      {},
      h('summary', {}, 'The request this crawl runs with, defaults filled in (JSON)'),
      h('pre', { class: 'json', tabindex: 0 }, text),
      h('button', { type: 'button', class: 'secondary', onclick: () => void copy() }, 'Copy JSON'),
    ),
  );
}

/**
 * What the crawl's trap rules found (docs/crawling.md, "Traps"): the patterns, the URLs they kept out by reason, and
 * the links a host's page budget refused. Nothing when there is nothing to say.
 * @param {Stats['traps']} traps
 */
function trapTables(traps) {
  const rules = traps.rules.map((r) => [h('code', {}, r.rule), r.pattern]);
  const skipped = traps.skipped.map((r) => [r.reason, fmt(r.count)]);
  const budget =
    traps.overHostBudget > 0
      ? [
          h(
            'p',
            { class: 'muted' },
            `${fmt(traps.overHostBudget)} links not taken: their host had its maxPagesPerHost.`,
          ),
        ]
      : [];
  if (rules.length === 0 && skipped.length === 0) return budget;
  return [
    table('Traps found', ['Rule', ['Pattern', 'wide']], rules, 'No trap pattern declared.'),
    table(
      'URLs kept out of traps',
      [
        ['Reason', 'wide'],
        ['URLs', 'num'],
      ],
      skipped,
      'No URL kept out.',
    ),
    ...budget,
  ];
}

/**
 * The crawl page's tables: statuses, errors by kind of reason and by code, hosts, recent pages.
 * @param {ReturnType<typeof crawlLayout>} boxes @param {Stats} s @param {HostState[]} hostList @param {Page[]} pages @param {(url: string) => Node} short
 */
function renderTables(boxes, s, hostList, pages, short) {
  const statusRows = s.statuses.map((r) => [String(r.status), fmt(r.count)]);
  boxes.statuses.replaceChildren(table('Pages by HTTP status', ['Status', ['Pages', 'num']], statusRows));
  const kindRows = s.errorKinds.map((r) => [r.outcome, r.kind, fmt(r.count)]);
  const codeRows = s.errorCodes.map((r) => [r.outcome, h('code', {}, r.code), fmt(r.count)]);
  boxes.reasons.replaceChildren(
    table('Errors by reason', ['Outcome', 'Reason', ['URLs', 'num']], kindRows, 'No errors.'),
    // The same errors by code (GET /errors lists each URL's): what a script groups by.
    ...(codeRows.length > 0 ? [table('Errors by code', ['Outcome', 'Code', ['URLs', 'num']], codeRows)] : []),
    ...trapTables(s.traps),
  );
  boxes.hosts.replaceChildren(hostsTable(hostList));
  const pageRows = pages.map((p) => [
    h('a', { href: `${location.hash}/page?url=${encodeURIComponent(p.url)}` }, short(p.url)),
    String(p.status),
    p.duplicateOf
      ? h('span', { class: 'muted', title: p.duplicateOf }, `duplicate (${p.duplicateReason})`)
      : (p.title ?? ''),
    p.rendered ? h('span', { title: `rendered: ${p.rendered}` }, 'JS') : '',
    clock(p.fetchedAt),
  ]);
  boxes.recent.replaceChildren(
    table('Recent pages', ['URL', 'Status', ['Title', 'wide'], 'Rendered', 'Fetched'], pageRows, 'No pages yet.'),
  );
}

/** @param {HTMLElement} box @param {Stats} s */
function renderStatus(box, s) {
  const times = `started ${when(s.createdAt)}${s.finishedAt ? `, ended ${when(s.finishedAt)}` : ''}`;
  box.replaceChildren(badge(s.status), ' ', h('span', { class: 'muted' }, times));
}

/**
 * Draws a recrawl's changes (counts, and the first 100 pages that changed) again only when they changed.
 * @param {string} id @param {HTMLElement} box @param {(url: string) => Node} short
 */
function changesRefresher(id, box, short) {
  const base = `/v1/crawls/${id}`;
  const pageLink = (/** @type {string} */ url) => `#/crawls/${id}/page?url=${encodeURIComponent(url)}&tab=changes`;
  let last = '';
  return async () => {
    const [view, list] = await Promise.all([json(base), json(`${base}/changes?limit=100`)]);
    const key = JSON.stringify([/** @type {CrawlView} */ (view).changes, list]);
    if (key === last) return;
    last = key;
    const counts = /** @type {CrawlView} */ (view).changes ?? { new: 0, changed: 0, unchanged: 0, gone: 0 };
    box.replaceChildren(changesView(counts, /** @type {ChangeList} */ (list), short, pageLink));
  };
}

async function crawlView(/** @type {string} */ id) {
  const base = `/v1/crawls/${id}`;
  const parts = progressParts();
  const actionError = h('p', { class: 'error', role: 'alert' });
  const act = actionRunner(actionError, () => refresh());
  const actions = crawlActions(base, id, act);
  const retryUrl = (/** @type {string} */ url) =>
    void act(
      () => json(`${base}/retry-errors`, { method: 'POST', body: JSON.stringify({ urls: [url] }) }),
      `${url} queued again.`,
    );
  /** Error rows the operator opened stay open across refreshes. */
  const open = new Set();
  let lastErrors = '';
  let lastStatus = '';
  const crawl = await loadCrawl(id, route);
  if (!crawl) return;
  const short = shortener(new URL(crawl.config.seeds[0] ?? location.href).host);
  const boxes = crawlLayout(id, crawl.config, parts, actions.all, actionError, crawl.changes !== undefined);
  const refreshChanges = crawl.changes ? changesRefresher(id, boxes.changes, short) : async () => {};

  async function refresh() {
    const paths = ['stats', 'hosts', 'pages?order=recent&limit=10', 'errors?limit=100', 'usage'];
    const [stats, hostList, pages, errorList, usage] = await Promise.all([
      ...paths.map((path) => json(`${base}/${path}`)),
      refreshChanges(),
    ]);
    const s = /** @type {Stats} */ (stats);
    if (s.status !== lastStatus) {
      if (lastStatus) announce(`Crawl ${s.status}.`);
      lastStatus = s.status;
      renderStatus(parts.status, s);
    }
    renderProgress(parts, s, /** @type {Usage} */ (usage));
    actions.cancel.hidden = s.status !== 'running';
    actions.retryAll.hidden = s.counts.failed === 0 || s.status === 'cancelled';
    renderTables(
      boxes,
      s,
      /** @type {{ hosts: HostState[] }} */ (hostList).hosts,
      /** @type {{ pages: Page[] }} */ (pages).pages,
      short,
    );
    const es = /** @type {{ errors: ErrorItem[] }} */ (errorList).errors;
    const key = JSON.stringify(es);
    if (key === lastErrors) return;
    lastErrors = key;
    const ctx = { open, short, retry: lastStatus !== 'cancelled' ? retryUrl : null };
    boxes.errors.replaceChildren(errorsView(es, ctx));
  }

  await keepFresh(refresh, () => (lastStatus === 'running' ? LIVE_MS : IDLE_MS));
}

// ---- start ----

onUnauthorized((message) => logout(message));
byId('login-form').addEventListener('submit', (event) => void login(/** @type {SubmitEvent} */ (event)));
byId('logout').addEventListener('click', () => logout(undefined, true));
window.addEventListener('hashchange', () => {
  route();
  byId('main').focus();
});
shareWithTabs(() => logout('Logged out in another tab.'));
void sessionToken().then((found) => {
  if (!found) return logout();
  byId('login').hidden = true;
  byId('logout').hidden = false;
  route();
});
