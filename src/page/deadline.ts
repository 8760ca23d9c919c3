/**
 * Fetch deadlines that a busy isolate cannot trip. A Worker reads its sockets on the thread that runs its
 * JavaScript: while it extracts one page, no byte of another fetch arrives, and that fetch's timer would fire as soon
 * as the thread is free, before the bytes waiting for it are read. So time the thread spent blocked does not count
 * against a deadline: a heartbeat measures how late it runs (the time the thread was busy), and a deadline that
 * expires re-arms itself for the blocked time it was charged, up to a hard stop HARD_STOP_MS past its length.
 */
const TICK_MS = 25;
/** However busy the thread, a deadline expires this long after its length at the latest (a CPU limit ends a busier isolate first). */
const HARD_STOP_MS = 30_000;
/** Lateness below this is scheduling noise, not a blocked thread. */
const SLACK_MS = 5;

let blocked = 0;
let lastTick = 0;
let heartbeat: ReturnType<typeof setInterval> | undefined;
let users = 0;

/** Milliseconds the thread has been busy so far, including a block still under way when asked. */
function blockedSoFar(): number {
  return blocked + Math.max(0, Date.now() - lastTick - TICK_MS - SLACK_MS);
}

function retain(): void {
  if (users++ > 0) return;
  lastTick = Date.now();
  heartbeat = setInterval(() => {
    const now = Date.now();
    blocked += Math.max(0, now - lastTick - TICK_MS - SLACK_MS);
    lastTick = now;
  }, TICK_MS);
}

function release(): void {
  if (--users > 0) return;
  if (heartbeat !== undefined) clearInterval(heartbeat);
  heartbeat = undefined;
}

export interface Deadline {
  clear(): void;
}

/** Calls `expire` once `ms` of time not spent blocked has passed (or `ms` + HARD_STOP_MS in all), unless cleared first. */
export function deadline(ms: number, expire: () => void): Deadline {
  retain();
  const start = Date.now();
  const blockedAtStart = blockedSoFar();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    release();
  };
  const check = () => {
    const elapsed = Date.now() - start;
    const idle = elapsed - (blockedSoFar() - blockedAtStart);
    if (idle >= ms || elapsed >= ms + HARD_STOP_MS) {
      finish();
      expire();
    } else timer = setTimeout(check, Math.max(TICK_MS, ms - idle));
  };
  let timer = setTimeout(check, ms);
  return { clear: finish };
}
