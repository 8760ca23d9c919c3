// @ts-check
// A tab set (the WAI-ARIA tabs pattern): a tablist of buttons, one panel shown; arrow keys, Home and End move
// between tabs (and select them). Each panel's content is made on its first opening, with loading and error states.

import { messageOf } from './api.js';
import { h } from './dom.js';
import { loading } from './ui.js';

/** @typedef {import('./dom.js').Child} Child */
/** @typedef {{ key: string, label: string, render: () => Child | Child[] | Promise<Child | Child[]> }} Tab */

let sets = 0;

/**
 * @param {string} label  the tablist's accessible name
 * @param {Tab[]} tabs
 * @param {string | undefined} selected  the key of the tab shown first (the first tab when unknown)
 * @param {(key: string) => void} [onSelect]  told of each selection after the first
 */
export function tabSet(label, tabs, selected, onSelect) {
  const prefix = `tabs${++sets}`;
  const opened = new Set();
  const buttons = tabs.map((tab) =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `${prefix}-${tab.key}`,
        'aria-controls': `${prefix}-${tab.key}-panel`,
        'aria-selected': 'false',
        tabindex: '-1',
        onclick: () => select(tab.key, false),
      },
      tab.label,
    ),
  );
  const panels = tabs.map((tab) =>
    h('div', {
      role: 'tabpanel',
      id: `${prefix}-${tab.key}-panel`,
      'aria-labelledby': `${prefix}-${tab.key}`,
      tabindex: '0',
      class: 'tab-panel',
      hidden: true,
    }),
  );
  const select = (/** @type {string} */ key, /** @type {boolean} */ focus, first = false) => {
    tabs.forEach((tab, i) => {
      const on = tab.key === key;
      buttons[i]?.setAttribute('aria-selected', String(on));
      buttons[i]?.setAttribute('tabindex', on ? '0' : '-1');
      if (panels[i]) panels[i].hidden = !on;
      if (on && focus) buttons[i]?.focus();
      if (on && !opened.has(key) && panels[i]) void fill(panels[i], tab, opened);
    });
    if (!first) onSelect?.(key);
  };
  const list = h(
    'div',
    { role: 'tablist', 'aria-label': label, class: 'tablist', onkeydown: keys(tabs, select) },
    buttons,
  );
  select(tabs.some((t) => t.key === selected) ? (selected ?? '') : (tabs[0]?.key ?? ''), false, true);
  return h('div', { class: 'tabs' }, list, ...panels);
}

/** Arrow keys, Home and End: the next, previous, first or last tab, focused and selected. */
function keys(/** @type {Tab[]} */ tabs, /** @type {(key: string, focus: boolean) => void} */ select) {
  return (/** @type {Event} */ event) => {
    const e = /** @type {KeyboardEvent} */ (event);
    const at = tabs.findIndex((t) => t.key === /** @type {HTMLElement} */ (e.target).id.replace(/^tabs\d+-/, ''));
    const n = tabs.length;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1 + n, Home: 0, End: n - 1 }[e.key];
    if (to === undefined || at < 0) return;
    e.preventDefault();
    select(tabs[to % n]?.key ?? '', true);
  };
}

/** A panel's content, made once: loading, then the content or the error's message. */
async function fill(/** @type {HTMLElement} */ panel, /** @type {Tab} */ tab, /** @type {Set<string>} */ opened) {
  opened.add(tab.key);
  panel.replaceChildren(loading());
  try {
    panel.replaceChildren(h('div', {}, await tab.render()));
  } catch (error) {
    opened.delete(tab.key);
    panel.replaceChildren(h('p', { class: 'error', role: 'alert' }, `Could not load this tab: ${messageOf(error)}`));
  }
}
