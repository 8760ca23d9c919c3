/** CPU time and peak memory of a process tree, from /proc (Linux). */
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS = 100;

/** Processes whose process group is `pgid` (a detached child's tree). */
export function processGroup(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/** User + system CPU seconds of the processes (only those whose command name matches, if given). */
export function cpuSeconds(pids: number[], match?: RegExp): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      if (match && !match.test(readFileSync(`/proc/${pid}/comm`, 'utf8'))) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / CLOCK_TICKS;
}

/** The largest peak resident set (VmHWM) among the processes whose command line matches, in MiB. */
export function peakRssMiB(pids: number[], match: RegExp): number {
  let peak = 0;
  for (const pid of pids) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!match.test(cmd)) continue;
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (hwm) peak = Math.max(peak, Number(hwm[1]) / 1024);
    } catch {
      // gone
    }
  }
  return peak;
}

/**
 * CPU nanoseconds the processes' threads have run (the scheduler's own count, /proc/<pid>/task/<tid>/schedstat):
 * fine enough to time one request, where user + system times move in 10 ms ticks.
 */
export function cpuNanos(pids: number[]): number {
  let ns = 0;
  for (const pid of pids) {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`))
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // gone
    }
  }
  return ns;
}

/** The processes of a group whose command name matches. */
export const processesNamed = (pgid: number, match: RegExp) =>
  processGroup(pgid).filter((pid) => {
    try {
      return match.test(readFileSync(`/proc/${pid}/comm`, 'utf8'));
    } catch {
      return false;
    }
  });
