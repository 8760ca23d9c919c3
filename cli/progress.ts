/** The progress of a crawl as one line: a bar, pages stored and failed, the rate and an ETA. Pure. */

export interface Progress {
  status: string;
  counts: { discovered: number; fetched: number; stored: number; failed: number; skipped: number; duplicates?: number };
  /** URLs queued or in flight. */
  pending: number;
  /** Pages fetched per second, lately. */
  pagesPerSecond: number;
}

/** Seconds until the pending URLs are done at `rate` pages/s: 0 when none is pending, null when not moving. */
export function etaSeconds(pending: number, rate: number): number | null {
  if (pending <= 0) return 0;
  if (!(rate > 0)) return null;
  return Math.ceil(pending / rate);
}

/** 7s, 3m05s, 2h04m; "?" when unknown. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** `width` cells, the done fraction of them filled. */
export function bar(fraction: number, width: number): string {
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const filled = Math.round(f * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
}

function rate(pagesPerSecond: number): string {
  return pagesPerSecond >= 10 ? pagesPerSecond.toFixed(0) : pagesPerSecond.toFixed(1);
}

/**
 * One line of progress: `[████░░░░] 12/30 · 10 stored · 2 failed · 18 pending · 2.4 pages/s · ETA 8s`, with the
 * bar when `barWidth` > 0; when the crawl has ended, its status instead of the rate and ETA.
 */
export function progressLine(p: Progress, barWidth: number): string {
  const { discovered, stored, failed, skipped } = p.counts;
  const done = Math.max(0, discovered - p.pending);
  const parts = [`${done}/${discovered}`, `${stored} stored`, `${failed} failed`];
  if (skipped > 0) parts.push(`${skipped} skipped`);
  if (p.counts.duplicates) parts.push(`${p.counts.duplicates} duplicates`);
  if (p.status === 'running')
    parts.push(
      `${p.pending} pending`,
      `${rate(p.pagesPerSecond)} pages/s`,
      `ETA ${formatDuration(etaSeconds(p.pending, p.pagesPerSecond))}`,
    );
  else parts.push(p.status);
  const line = parts.join(' · ');
  return barWidth > 0 ? `[${bar(discovered > 0 ? done / discovered : 0, barWidth)}] ${line}` : line;
}
