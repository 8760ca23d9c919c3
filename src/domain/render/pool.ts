/**
 * The account's browsers, as one Durable Object keeps them (objects/browser-pool.ts): which sessions exist, who holds
 * each, and whether one more may be launched. Browser Rendering bills every browser-second of a session and caps the
 * browsers an account runs at once and launches per minute; a browser is kept alive between consumer invocations and
 * reconnected to (sessions()/connect()), so a crawl of 100,000 pages launches a handful, not 100,000.
 */

interface PoolSession {
  /** The platform's session id, or `launch:<ticket>` while a launch it granted is under way. */
  id: string;
  /** The consumer invocation holding it; null: idle, free to connect to. */
  holder: string | null;
  /** Held: when the hold lapses (its holder died). Idle: when the browser's keep_alive ends it. */
  until: number;
  /** Idle: since when (an idle browser is billed; the pool closes one nobody took within `idleCloseMs`). */
  idleSince?: number;
}

export interface PoolState {
  sessions: PoolSession[];
  /** When recent launches were granted (the last minute's). */
  launches: number[];
}

export interface PoolLimits {
  /** Browsers at once, across every consumer and crawl (the account's limit, or less). */
  maxBrowsers: number;
  launchesPerMinute: number;
  /** How long an idle browser lives (the keep_alive it was launched with). */
  keepAliveMs: number;
  /** How long a hold lasts unless renewed. */
  holdMs: number;
  /** An idle browser nobody connected to within this long is closed (it is billed while it lives). */
  idleCloseMs: number;
}

export type Grant =
  | { kind: 'connect'; sessionId: string }
  | { kind: 'launch'; ticket: string }
  | { kind: 'wait'; retryInMs: number; why: 'browsers' | 'launches' };

/** A launch not reported within this long is taken back. */
export const LAUNCH_GRACE_MS = 60_000;
/** An idle browser is not handed out in the last moments of its keep_alive. */
const IDLE_MARGIN_MS = 5_000;

export const emptyPool = (): PoolState => ({ sessions: [], launches: [] });

/** Lapsed holds freed, browsers past their keep_alive and stale launches dropped. */
export function tidy(state: PoolState, now: number, limits: PoolLimits): PoolState {
  const sessions = state.sessions.flatMap((s): PoolSession[] => {
    if (s.until > now) return [s];
    // A lapsed launch or a dead holder's browser: if it still runs, it is idle until its keep_alive ends.
    const idleUntil = s.until + limits.keepAliveMs - IDLE_MARGIN_MS;
    if (s.holder !== null && !s.id.startsWith('launch:') && idleUntil > now)
      return [{ id: s.id, holder: null, until: idleUntil, idleSince: s.until }];
    return [];
  });
  return { sessions, launches: state.launches.filter((t) => t > now - 60_000) };
}

/** What `holder` may do now: connect to an idle browser, launch one, or wait. */
export function grant(
  state: PoolState,
  holder: string,
  now: number,
  limits: PoolLimits,
  ticket: () => string,
): { state: PoolState; grant: Grant } {
  const pool = tidy(state, now, limits);
  const idle = pool.sessions.filter((s) => s.holder === null).sort((a, b) => b.until - a.until)[0];
  if (idle) {
    const sessions = pool.sessions.map((s) => (s === idle ? { id: s.id, holder, until: now + limits.holdMs } : s));
    return { state: { ...pool, sessions }, grant: { kind: 'connect', sessionId: idle.id } };
  }
  if (pool.sessions.length >= limits.maxBrowsers) {
    const soonest = Math.min(...pool.sessions.map((s) => s.until));
    return { state: pool, grant: { kind: 'wait', retryInMs: waitMs(soonest - now), why: 'browsers' } };
  }
  if (pool.launches.length >= limits.launchesPerMinute) {
    const oldest = Math.min(...pool.launches);
    return { state: pool, grant: { kind: 'wait', retryInMs: waitMs(oldest + 60_000 - now), why: 'launches' } };
  }
  const id = `launch:${ticket()}`;
  const sessions = [...pool.sessions, { id, holder, until: now + LAUNCH_GRACE_MS }];
  return { state: { sessions, launches: [...pool.launches, now] }, grant: { kind: 'launch', ticket: id } };
}

/** A wait of at least 250 ms and at most 5 s: a browser may be released at any moment. */
const waitMs = (ms: number) => Math.min(5_000, Math.max(250, ms));

/** The launch behind `ticket` succeeded: its browser is `sessionId`, held by whoever launched it. */
export function launched(
  state: PoolState,
  ticket: string,
  sessionId: string,
  now: number,
  limits: PoolLimits,
): PoolState {
  const holder = state.sessions.find((s) => s.id === ticket)?.holder ?? ticket;
  const sessions = state.sessions.filter((s) => s.id !== ticket && s.id !== sessionId);
  return { ...state, sessions: [...sessions, { id: sessionId, holder, until: now + limits.holdMs }] };
}

/**
 * `holder` is done with `id` (a session, or a launch ticket that failed). A browser still alive stays, idle, for
 * others to connect to until its keep_alive ends; a dead one (or a failed launch) is forgotten.
 */
export function released(state: PoolState, id: string, alive: boolean, now: number, limits: PoolLimits): PoolState {
  const sessions = state.sessions.flatMap((s): PoolSession[] => {
    if (s.id !== id) return [s];
    return alive && !id.startsWith('launch:')
      ? [{ id, holder: null, until: now + limits.keepAliveMs - IDLE_MARGIN_MS, idleSince: now }]
      : [];
  });
  return { ...state, sessions };
}

/** `holder` still works with `id`: its hold is extended. */
export function renewed(state: PoolState, id: string, holder: string, now: number, limits: PoolLimits): PoolState {
  const sessions = state.sessions.map((s) =>
    s.id === id && s.holder === holder ? { ...s, until: now + limits.holdMs } : s,
  );
  return { ...state, sessions };
}

/**
 * Idle browsers to close now (nobody connected to them within `idleCloseMs`), with the state without them, and when
 * to look again (null: no idle browser left). Closing one that is still wanted costs a launch; keeping one nobody
 * wants costs up to its keep_alive of browser time.
 */
export function idleToClose(
  state: PoolState,
  now: number,
  limits: PoolLimits,
): { close: string[]; state: PoolState; nextAt: number | null } {
  const pool = tidy(state, now, limits);
  const idle = pool.sessions.filter((s) => s.holder === null);
  const due = (s: PoolSession) => (s.idleSince ?? now) + limits.idleCloseMs <= now;
  const close = idle.filter(due).map((s) => s.id);
  const left = idle.filter((s) => !due(s)).map((s) => (s.idleSince ?? now) + limits.idleCloseMs);
  const sessions = pool.sessions.filter((s) => !close.includes(s.id));
  return { close, state: { ...pool, sessions }, nextAt: left.length > 0 ? Math.min(...left) : null };
}
