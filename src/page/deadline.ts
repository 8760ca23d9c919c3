/**
 * Fetch deadlines that a busy isolate cannot trip. A Worker reads its sockets on the thread that runs its
 * JavaScript: while it extracts one page, no byte of another fetch arrives, and that fetch's timer would fire as soon
 * as the thread is free, before the bytes waiting for it are read. So a deadline's timer that fires late (the thread
 * was busy when it was due) does not expire it: it is re-armed for as long as it was late, and the bytes that came
 * meanwhile are read first. Only a timer that fires on time (the thread was free, and nothing came) expires it, or
 * the hard stop HARD_STOP_MS past its length, however busy the thread stays.
 *
 * Each deadline measures its own timer: nothing is shared between deadlines. Timers belong to the request or queue
 * invocation that set them and end with it, so a heartbeat shared by every fetch of the isolate, as this once was,
 * died with the invocation that started it while others still read it, and their deadlines all ran to the hard stop.
 */
const TICK_MS = 25;
/** However busy the thread, a deadline expires this long after its length at the latest (a CPU limit ends a busier isolate first). */
const HARD_STOP_MS = 30_000;
/** Lateness below this is scheduling noise, not a blocked thread. */
const SLACK_MS = 5;

export interface Deadline {
  clear(): void;
}

/** Calls `expire` once its timer fires on time `ms` after it was set (or at `ms` + HARD_STOP_MS), unless cleared first. */
export function deadline(ms: number, expire: () => void): Deadline {
  const start = Date.now();
  let due = start + ms;
  let done = false;
  const check = () => {
    if (done) return;
    const now = Date.now();
    const late = now - due - SLACK_MS;
    if (late > 0 && now - start < ms + HARD_STOP_MS) {
      // Busy when it was due: the time it was late is given back, capped at the hard stop.
      const wait = Math.min(Math.max(TICK_MS, late), start + ms + HARD_STOP_MS - now);
      due = now + wait;
      timer = setTimeout(check, wait);
      return;
    }
    done = true;
    expire();
  };
  let timer = setTimeout(check, ms);
  return {
    clear() {
      done = true;
      clearTimeout(timer);
    },
  };
}
