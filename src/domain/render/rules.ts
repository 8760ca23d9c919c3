/**
 * JavaScript rendering, the pure parts: when a page goes to the browser, and which of the browser's own requests
 * are let through. The browser itself is driven by page/render.ts; its count is owned by objects/browser-pool.ts.
 */
import { isRefusedUrl, type PrivateAllowance } from '../url/address';

export const RENDER_MODES = ['auto', 'always', 'never'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

/** How long a render may wait for the page, bounded: a number of milliseconds, or a CSS selector to appear. */
export type WaitFor = number | string;

/** The most a render waits for `waitFor` (a page that never settles is cut there). */
export const MAX_WAIT_FOR_MS = 30_000;

/** Time a render is given beyond RENDER_TIMEOUT_MS for what it was asked to wait for. */
export const waitBudgetMs = (waitFor: WaitFor | null | undefined): number =>
  typeof waitFor === 'number' ? Math.min(waitFor, MAX_WAIT_FOR_MS) : typeof waitFor === 'string' ? MAX_WAIT_FOR_MS : 0;

/** Rendering options of a crawl or a scrape, as stored. */
export interface RenderOptions {
  render: RenderMode;
  waitFor?: WaitFor | null;
  /** Renders a crawl may make; then pages are stored unrendered with a warning. null: no cap. */
  maxRenders?: number | null;
  screenshot?: Screenshot | null;
}

export interface Screenshot {
  fullPage: boolean;
}

/**
 * Deliveries of a URL's message a render fault may take before the page is stored unrendered: transient faults are
 * retried without using up an attempt, but never forever. A browser that failed under the page (crashed,
 * disconnected, not launched) gets 3; no browser free (the account's limit, busy with other renders) gets 6, the
 * waits doubling from 5 s (about 2.5 minutes in all): it frees up as renders end. Both stay under the queue's
 * max_retries (test/repo/wrangler-rules.test.ts), so a render never dead-letters its URL.
 */
export const RENDER_TRIES = 3;
export const BROWSER_WAIT_TRIES = 6;

/** The default cap on a crawl's renders: about 8 browser hours at 3 s a page, $0.75 at $0.09 an hour. */
export const DEFAULT_MAX_RENDERS = 10_000;

/** Why a page was rendered: its mode said so, a screenshot needs a browser, or what the plain fetch showed. */
export type RenderWhy = 'always' | 'screenshot' | `auto: ${string}`;

/**
 * Whether a fetched HTML page goes to the browser. `need` is what the page's plain HTML says (domain/render/need.ts),
 * asked only under auto; a screenshot needs a browser whatever the page is.
 */
export function renderWhy(
  options: Pick<RenderOptions, 'render' | 'screenshot'>,
  need: () => string | null,
): RenderWhy | null {
  if (options.render === 'never') return null;
  if (options.render === 'always') return 'always';
  const reason = need();
  if (reason !== null) return `auto: ${reason}`;
  return options.screenshot ? 'screenshot' : null;
}

/** Resource types (as Chrome names them) a render does not load: nothing of the text depends on them. */
const HEAVY = new Set(['image', 'media', 'font']);
/** What a page may load from another host: what it needs to build itself (code, styles, data). */
const CROSS_HOST = new Set(['script', 'stylesheet', 'xhr', 'fetch']);

export interface BrowserRequest {
  url: string;
  resourceType: string;
  /** A navigation of the page's main frame (the page itself, or a script sending it elsewhere). */
  mainFrameNavigation: boolean;
}

export type RequestVerdict = { allow: true } | { allow: false; why: string };

/**
 * Whether a request the page's browser makes may go out. Private, loopback and link-local addresses are refused by
 * the same rules as fetches; the page may not navigate away from itself; images, media and fonts are not loaded
 * unless a screenshot needs them; another host serves only scripts, styles and data requests.
 */
export function requestVerdict(
  request: BrowserRequest,
  page: { url: string; screenshot: boolean; allowPrivate: PrivateAllowance },
): RequestVerdict {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { allow: false, why: 'not a URL' };
  }
  if (url.protocol === 'data:' || url.protocol === 'blob:') return { allow: true };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { allow: false, why: `scheme ${url.protocol}` };
  if (isRefusedUrl(request.url, page.allowPrivate)) return { allow: false, why: 'private network address' };
  if (request.mainFrameNavigation) return sameDocument(request.url, page.url);
  if (HEAVY.has(request.resourceType) && !page.screenshot) return { allow: false, why: request.resourceType };
  if (url.host === new URL(page.url).host || CROSS_HOST.has(request.resourceType) || page.screenshot)
    return { allow: true };
  return { allow: false, why: `${request.resourceType} from another host` };
}

/** The page's own URL (fragments aside); anything else is the page leaving itself. */
function sameDocument(target: string, pageUrl: string): RequestVerdict {
  const strip = (u: string) => u.replace(/#.*$/, '');
  return strip(target) === strip(pageUrl) ? { allow: true } : { allow: false, why: 'navigation away from the page' };
}

/** Keys an action may press. */
export const ACTION_KEYS = [
  'Enter',
  'Tab',
  'Escape',
  'Space',
  'ArrowDown',
  'ArrowUp',
  'PageDown',
  'PageUp',
  'End',
  'Home',
] as const;

/** What `/v1/scrape` may do in the page before it is read, in order (as Firecrawl's actions). */
export type Action =
  | { type: 'wait'; milliseconds?: number; selector?: string }
  | { type: 'click'; selector: string }
  | { type: 'type'; selector: string; text: string }
  /** Types into whatever has the focus (after a click), as Firecrawl's `write`. */
  | { type: 'write'; text: string }
  | { type: 'press'; key: (typeof ACTION_KEYS)[number] }
  | { type: 'scroll'; direction: 'up' | 'down'; amount?: number };

/** The screenshot a spec's formats ask for: the whole page, the viewport, or none. */
export function screenshotOf(formats: readonly string[] | undefined): Screenshot | null {
  if (formats?.includes('screenshot@fullPage')) return { fullPage: true };
  return formats?.includes('screenshot') ? { fullPage: false } : null;
}

/** An action as a reader names it: `click "#more"`, `wait for ".list li"`, `press Enter` (never what it types). */
export function describeAction(action: Action): string {
  switch (action.type) {
    case 'wait':
      return action.selector !== undefined
        ? `wait for ${JSON.stringify(action.selector)}`
        : `wait ${action.milliseconds ?? 0} ms`;
    case 'click':
      return `click ${JSON.stringify(action.selector)}`;
    case 'type':
      return `type into ${JSON.stringify(action.selector)}`;
    case 'write':
      return 'write';
    case 'press':
      return `press ${action.key}`;
    case 'scroll':
      return `scroll ${action.direction}`;
  }
}

/**
 * A scrape's actions are steps the caller asked for, not hints: one that cannot be done (no element matches its
 * selector, a wait runs out), or a page that could not be rendered to do them, fails the scrape, naming why. These
 * build its reason; the outcome's code (action_failed, render_failed) tells the two apart.
 */
export const actionFailed = (index: number, total: number, action: Action, why: string) =>
  `action ${index + 1} of ${total} (${describeAction(action)}) could not be done: ${why}; the page was not read`;

export const actionsNotDone = (total: number, why: string) =>
  `the page could not be rendered, so its ${total === 1 ? 'action was' : `${total} actions were`} not done: ${why}`;
