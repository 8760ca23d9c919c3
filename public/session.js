// @ts-check
// The API token for this browser session, shared by its tabs: each tab keeps it in its sessionStorage (never in
// localStorage, so it ends with the browser session), a new tab asks the open ones for it over a BroadcastChannel
// (same origin only), and a logout in one tab logs every tab out.

const KEY = 'edgecrawl-token';
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('edgecrawl-session') : null;

/** @typedef {{ type: 'ask' } | { type: 'token', token: string } | { type: 'logout' }} SessionMessage */

export const token = () => sessionStorage.getItem(KEY);

/** @param {string} value */
export const remember = (value) => sessionStorage.setItem(KEY, value);

/** Forgets the token in this tab; `everywhere`: tells the session's other tabs to forget it too. */
export function forget(everywhere = false) {
  const had = token() !== null;
  sessionStorage.removeItem(KEY);
  if (had && everywhere) channel?.postMessage(/** @type {SessionMessage} */ ({ type: 'logout' }));
}

/**
 * Hands the token to a tab that asks for it; calls `onLogout` when another tab logs out.
 * @param {() => void} onLogout
 */
export function shareWithTabs(onLogout) {
  channel?.addEventListener('message', (event) => {
    const message = /** @type {SessionMessage | null} */ (event.data);
    const current = token();
    if (message?.type === 'ask' && current)
      channel.postMessage(/** @type {SessionMessage} */ ({ type: 'token', token: current }));
    if (message?.type === 'logout' && current) {
      sessionStorage.removeItem(KEY);
      onLogout();
    }
  });
}

/**
 * This tab's token, or one an open tab of the session hands over within `waitMs`; null: none (log in).
 * @returns {Promise<string | null>}
 */
export function sessionToken(waitMs = 400) {
  const own = token();
  if (own || !channel) return Promise.resolve(own);
  const open = channel;
  return new Promise((resolve) => {
    /** @param {string | null} value */
    const done = (value) => {
      open.removeEventListener('message', onMessage);
      clearTimeout(timeout);
      resolve(value);
    };
    /** @param {MessageEvent} event */
    const onMessage = (event) => {
      const message = /** @type {SessionMessage | null} */ (event.data);
      if (message?.type !== 'token' || typeof message.token !== 'string') return;
      remember(message.token);
      done(message.token);
    };
    open.addEventListener('message', onMessage);
    const timeout = setTimeout(() => done(null), waitMs);
    open.postMessage(/** @type {SessionMessage} */ ({ type: 'ask' }));
  });
}
