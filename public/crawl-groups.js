// @ts-check
// The new-crawl form's groups of settings, each field registered by the path of its setting (crawl-fields.js).

import { check, choice, field, group, int, intAttrs, lines, text } from './crawl-fields.js';
import { h } from './dom.js';
import { extractionFields } from './spec-editor.js';

/** @typedef {import('./crawl-fields.js').Registry} Registry */

/** A checkbox that sets `name` to true. @param {string} id @param {string} name */
const flag = (id, name) => h('input', { type: 'checkbox', id, name, 'data-kind': 'flag' });

/** Seeds, scope and limits. @param {Registry} reg */
function scopeGroup(reg) {
  const seeds = h('textarea', {
    id: 'seeds',
    name: 'seeds',
    required: true,
    'data-kind': 'words',
    placeholder: 'https://example.com/',
  });
  const scopes = [['same-host'], ['same-domain'], ['same-origin'], ['any']];
  return group(
    'scope',
    'Seeds & scope',
    true,
    field(reg, 'seeds', 'Seed URLs (one per line)', seeds),
    h(
      'div',
      { class: 'field-row' },
      field(
        reg,
        'maxPages',
        'Max pages',
        h('input', { ...intAttrs('max-pages', 'maxPages', 1, 100_000_000), placeholder: '10000' }),
        'Empty: 10,000, so a crawl left alone always ends.',
      ),
      field(reg, 'maxDepth', 'Max depth', int('max-depth', 'maxDepth', 0, 10_000)),
    ),
    field(
      reg,
      'maxPagesPerHost',
      'Page budget per host',
      int('max-pages-per-host', 'maxPagesPerHost', 1, 100_000_000),
      "For crawls of many hosts: one host's pages never use up the crawl. Empty: no per-host limit.",
    ),
    field(reg, 'scope', 'Scope', choice('scope', 'scope', scopes)),
    field(
      reg,
      'include',
      'Include patterns (one per line)',
      lines('include', 'include', '**/blog/**'),
      'Globs over the whole URL (**/blog/**) or re:<regular expression>: a URL must match one to be crawled.',
    ),
    field(reg, 'exclude', 'Exclude patterns (one per line)', lines('exclude', 'exclude', '**/*.zip')),
    field(reg, 'boost', 'Boost patterns (one per line)', lines('boost', 'boost'), 'Hub pages fetched first.'),
    check(flag('sitemaps', 'sitemaps'), "Read the seeds' sitemaps"),
    field(
      reg,
      'priority',
      'Priority',
      choice('priority', 'priority', [['normal'], ['high', 'high: ahead of work already queued']]),
    ),
  );
}

/** Rendering in a browser. @param {Registry} reg */
function renderingGroup(reg) {
  const modes = [
    ['auto', 'auto: render pages that need it'],
    ['always', 'always render'],
    ['never', 'never render'],
  ];
  const wait = text('wait-for', 'waitFor', { 'data-kind': 'int-or-text', placeholder: '2000 or #content' });
  return group(
    'rendering',
    'Rendering',
    true,
    field(reg, 'render', 'JavaScript', choice('render', 'render', modes)),
    h(
      'div',
      { class: 'field-row' },
      field(reg, 'waitFor', 'Wait for', wait, 'Milliseconds, or a CSS selector.'),
      field(reg, 'maxRenders', 'Max renders', int('max-renders', 'maxRenders', 0, 100_000_000), 'Default 10,000.'),
    ),
  );
}

/** The host gate's pace. @param {Registry} reg */
function politenessGroup(reg) {
  return group(
    'politeness',
    'Politeness',
    false,
    field(
      reg,
      'hostIntervalMs',
      'Gap between requests to a host (ms)',
      int('host-interval', 'hostIntervalMs', 0, 600_000),
      "robots.txt can only raise it; empty: the crawler's default.",
    ),
    field(reg, 'hostConcurrency', 'Requests in flight per host', int('host-concurrency', 'hostConcurrency', 1, 256)),
  );
}

/** The crawler-trap rules, each on unless its box is cleared (docs/crawling.md, "Traps"). */
const TRAP_RULES = [
  ['repeatedSegments', 'Skip paths that repeat a segment (/a/a/a/)'],
  ['deepPaths', "Skip paths far deeper than the host's pages"],
  ['pathEchoes', "Skip paths whose page is a shorter path's again (relative-link loops)"],
  ['urlPatterns', 'Skip URL patterns of near-identical pages (calendars, facets, sort orders)'],
  ['sessionParams', 'Strip session ids and tracking parameters (utm_*, sid, …)'],
  ['soft404', 'Tell soft 404s (200 "not found" pages): not stored, links not followed'],
];

/** The trap rules, as checkboxes that are on by default. @param {Registry} reg */
function trapsGroup(reg) {
  const boxes = TRAP_RULES.map(([rule, label]) =>
    check(
      h('input', { type: 'checkbox', id: `trap-${rule}`, name: `traps.${rule}`, checked: true, 'data-kind': 'off' }),
      label,
    ),
  );
  const error = h('p', { id: 'traps-error', class: 'error field-error' });
  const set = h('fieldset', { class: 'choices', id: 'traps', tabindex: -1, 'aria-describedby': 'traps-error' });
  set.append(h('legend', {}, 'Trap rules (all on by default)'), h('div', { class: 'checks' }, ...boxes), error);
  reg.set('traps', { control: set, error, label: 'Trap rules' });
  return group('traps', 'Traps', false, set);
}

/** Page cache, duplicates, comparison with an earlier crawl; retention. @param {Registry} reg */
function recrawlGroups(reg) {
  const duplicates = [
    ['skip', 'skip: store each content once'],
    ['similar', 'similar: also pages almost the same (another sort order, a counter)'],
    ['keep', 'keep: store every URL'],
  ];
  return [
    group(
      'recrawl',
      'Recrawl & duplicates',
      false,
      field(reg, 'maxAge', 'Page cache: reuse copies younger than (s)', int('max-age', 'maxAge', 0, 2_592_000)),
      field(reg, 'duplicates', 'Duplicates', choice('duplicates', 'duplicates', duplicates)),
      field(
        reg,
        'previousCrawlId',
        'Compare with crawl (id)',
        text('previous-crawl', 'previousCrawlId', { placeholder: 'a crawl id' }),
      ),
    ),
    group(
      'retention',
      'Retention',
      false,
      field(reg, 'retentionDays', 'Keep data for (days)', int('retention', 'retentionDays', 1, 3650), 'Empty: kept.'),
    ),
  ];
}

/** The webhook's events, registered as one field. @param {Registry} reg @param {HTMLElement[]} events */
function eventSet(reg, events) {
  const error = h('p', { id: 'webhook-events-error', class: 'error field-error' });
  const set = h(
    'fieldset',
    { class: 'choices', id: 'webhook-events', tabindex: -1, 'aria-describedby': 'webhook-events-error' },
    h('legend', {}, 'Events (none: the default ones, crawl.started and page.stored not among them)'),
    h('div', { class: 'checks' }, ...events),
    error,
  );
  reg.set('webhook.events', { control: set, error, label: 'Webhook events' });
  return set;
}

/** Where events are POSTed, signed. @param {Registry} reg */
function webhookGroup(reg) {
  const names = ['crawl.started', 'crawl.completed', 'crawl.cancelled', 'page.stored', 'page.failed', 'page.changed'];
  const events = names.map((e) => {
    const id = `event-${e.replace('.', '-')}`;
    return check(h('input', { type: 'checkbox', id, name: 'webhook.events', value: e, 'data-kind': 'set' }), e);
  });
  const url = h('input', { id: 'webhook-url', name: 'webhook.url', type: 'url', 'data-kind': 'text' });
  const secret = h('input', {
    id: 'webhook-secret',
    name: 'webhook.secret',
    type: 'password',
    autocomplete: 'off',
    'data-kind': 'text',
  });
  return group(
    'webhook',
    'Webhook',
    false,
    field(reg, 'webhook.url', 'Webhook URL', url),
    field(reg, 'webhook.secret', 'Signing secret (16+ characters)', secret),
    eventSet(reg, events),
  );
}

/**
 * What the crawl is let in with (docs/credentials.md): headers, cookies and basic credentials, sent to the seeds'
 * hosts (or those listed) only; the API keeps them sealed and never shows them again. A form login is the API's.
 * @param {Registry} reg
 */
function accessGroup(reg) {
  const secret = { autocomplete: 'off', spellcheck: 'false' };
  const headers = h('textarea', { id: 'access-headers', name: 'headers', rows: 2, 'data-kind': 'headers', ...secret });
  const cookies = text('access-cookies', 'cookies', { ...secret, 'data-kind': 'cookies', placeholder: 'session=…' });
  const user = text('access-user', 'authenticate.username', secret);
  const password = h('input', {
    id: 'access-password',
    name: 'authenticate.password',
    type: 'password',
    'data-kind': 'text',
    ...secret,
  });
  return group(
    'access',
    'Behind a login',
    false,
    field(reg, 'headers', 'Request headers (one per line, Name: value)', headers, 'e.g. Authorization: Bearer …'),
    field(reg, 'cookies', 'Cookies (a=1; b=2)', cookies),
    h(
      'div',
      { class: 'field-row' },
      field(reg, 'authenticate.username', 'Basic user name', user),
      field(reg, 'authenticate.password', 'Basic password', password),
    ),
    field(
      reg,
      'credentialsFor',
      'Send them to (hosts, one per line)',
      lines('access-hosts', 'credentialsFor', 'wiki.example.com'),
      "Empty: the seeds' hosts. No other host ever gets them; they are stored sealed and never shown again. A form login: the API's login field (docs/credentials.md).",
    ),
  );
}

/** Every group of a crawl's settings, in the order of the form. @param {Registry} reg */
export function settingGroups(reg) {
  return [
    scopeGroup(reg),
    renderingGroup(reg),
    politenessGroup(reg),
    trapsGroup(reg),
    group('extraction', 'Extraction', false, ...extractionFields(reg)),
    ...recrawlGroups(reg),
    webhookGroup(reg),
    accessGroup(reg),
  ];
}
