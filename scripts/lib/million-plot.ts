/** An SVG of bench:million's samples: pages/s, the isolate's heap and the running cost, each against time. */
import type { Sample } from './million-summary.ts';

const WIDTH = 760;
const PANEL = 150;
const MARGIN = { left: 70, right: 20, top: 30, gap: 40 };

interface Series {
  label: string;
  unit: string;
  values: number[];
  /** A horizontal line drawn across the panel (a goal or a limit), if any. */
  limit?: { value: number; label: string };
}

/** Pages/s between each sample and the one before. */
function rates(samples: readonly Sample[]): number[] {
  return samples.map((s, i) => {
    const before = samples[i - 1];
    return before ? (s.stored - before.stored) / Math.max(1e-9, s.seconds - before.seconds) : 0;
  });
}

function panel(series: Series, times: number[], top: number): string {
  const maxT = Math.max(1, ...times);
  const maxV = Math.max(1e-9, ...series.values, series.limit?.value ?? 0) * 1.1;
  const x = (t: number) => MARGIN.left + (t / maxT) * (WIDTH - MARGIN.left - MARGIN.right);
  const y = (v: number) => top + PANEL - (v / maxV) * PANEL;
  const points = series.values.map((v, i) => `${x(times[i] ?? 0).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const limit = series.limit
    ? `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(series.limit.value)}" y2="${y(series.limit.value)}" stroke="#c33" stroke-dasharray="4 3"/><text x="${WIDTH - MARGIN.right}" y="${y(series.limit.value) - 4}" text-anchor="end" fill="#c33">${series.limit.label}</text>`
    : '';
  return [
    `<text x="${MARGIN.left}" y="${top - 8}" font-weight="bold">${series.label} (${series.unit})</text>`,
    `<rect x="${MARGIN.left}" y="${top}" width="${WIDTH - MARGIN.left - MARGIN.right}" height="${PANEL}" fill="none" stroke="#999"/>`,
    `<text x="${MARGIN.left - 6}" y="${top + 10}" text-anchor="end">${(maxV / 1.1).toFixed(maxV < 10 ? 2 : 0)}</text>`,
    `<text x="${MARGIN.left - 6}" y="${top + PANEL}" text-anchor="end">0</text>`,
    `<polyline points="${points}" fill="none" stroke="#236" stroke-width="1.5"/>`,
    limit,
    `<text x="${WIDTH - MARGIN.right}" y="${top + PANEL + 14}" text-anchor="end">${maxT.toFixed(0)} s</text>`,
  ].join('\n');
}

export function plotSvg(samples: readonly Sample[], title: string): string {
  const times = samples.map((s) => s.seconds);
  const series: Series[] = [
    { label: 'pages stored per second', unit: 'pages/s', values: rates(samples) },
    {
      label: "the Worker isolate's JS heap",
      unit: 'MiB',
      values: samples.map((s) => s.heapMiB),
      limit: { value: 128, label: '128 MB limit' },
    },
    { label: 'cost so far', unit: 'USD', values: samples.map((s) => s.usd) },
  ];
  const height = MARGIN.top + series.length * (PANEL + MARGIN.gap) + 10;
  const panels = series.map((s, i) => panel(s, times, MARGIN.top + 20 + i * (PANEL + MARGIN.gap)));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${MARGIN.left}" y="18" font-size="13" font-weight="bold">bench:million: ${title}</text>
${panels.join('\n')}
</svg>
`;
}
