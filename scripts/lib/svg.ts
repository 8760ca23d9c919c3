/** A small, dependency-free SVG line chart for benchmark figures (log2 x axis, linear y axis from 0). */

interface Series {
  name: string;
  color: string;
  points: [number, number][];
}

export interface Chart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round axis maximum at or above `value` (1, 2 or 5 times a power of ten). */
function niceMax(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(value, 1)));
  return ([1, 2, 5, 10].map((m) => m * power).find((m) => m >= value) as number) ?? 10 * power;
}

export function lineChart({ title, xLabel, yLabel, series }: Chart): string {
  const [width, height] = [720, 420];
  const margin = { left: 64, right: 24, top: 48, bottom: 120 };
  const xs = [...new Set(series.flatMap((s) => s.points.map(([x]) => x)))].sort((a, b) => a - b);
  const yMax = niceMax(Math.max(...series.flatMap((s) => s.points.map(([, y]) => y))) * 1.05);
  const [x0, x1] = [Math.log2(xs[0] as number), Math.log2(xs.at(-1) as number)];
  const px = (x: number) =>
    margin.left + (x1 === x0 ? 0.5 : (Math.log2(x) - x0) / (x1 - x0)) * (width - margin.left - margin.right);
  const py = (y: number) => height - margin.bottom - (y / yMax) * (height - margin.top - margin.bottom);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="14" font-weight="600">${escapeXml(title)}</text>`,
  ];
  for (let i = 0; i <= 5; i++) {
    const y = (yMax * i) / 5;
    out.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${py(y)}" y2="${py(y)}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${margin.left - 8}" y="${py(y) + 4}" text-anchor="end" fill="#555">${Math.round(y)}</text>`);
  }
  for (const x of xs)
    out.push(`<text x="${px(x)}" y="${height - margin.bottom + 18}" text-anchor="middle" fill="#555">${x}</text>`);
  out.push(
    `<text x="${(margin.left + width - margin.right) / 2}" y="${height - margin.bottom + 38}" text-anchor="middle">${escapeXml(xLabel)}</text>`,
  );
  out.push(
    `<text transform="translate(16 ${(margin.top + height - margin.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(yLabel)}</text>`,
  );
  out.push(
    `<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${height - margin.bottom}" stroke="#999"/>`,
  );
  out.push(
    `<line x1="${margin.left}" x2="${width - margin.right}" y1="${height - margin.bottom}" y2="${height - margin.bottom}" stroke="#999"/>`,
  );
  series.forEach((s, i) => {
    const path = s.points.map(([x, y], k) => `${k === 0 ? 'M' : 'L'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    const dashed = /bound/.test(s.name) ? ' stroke-dasharray="6 4"' : '';
    out.push(`<path d="${path}" fill="none" stroke="${s.color}" stroke-width="2.5"${dashed}/>`);
    for (const [x, y] of s.points)
      out.push(
        `<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3.5" fill="${s.color}"><title>${escapeXml(s.name)}: ${y.toFixed(1)} at ${x}</title></circle>`,
      );
    const ly = height - margin.bottom + 58 + i * 16;
    out.push(
      `<line x1="${margin.left}" x2="${margin.left + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2.5"${dashed}/>`,
    );
    out.push(`<text x="${margin.left + 32}" y="${ly}">${escapeXml(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
