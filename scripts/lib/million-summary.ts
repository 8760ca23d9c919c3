/** What bench:million samples every few seconds, and what it makes of the samples. */
export interface Sample {
  seconds: number;
  stored: number;
  status: string;
  rssMiB: number;
  heapMiB: number;
  d1Bytes: number;
  doBytes: number;
  usd: number;
}

export interface Summary {
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  /** Pages/s over the first and the last tenth of the pages (10-20% and 80-90% would leave out start and end). */
  firstTenth: number;
  lastTenth: number;
  ratio: number;
  maxHeapMiB: number;
  maxRssMiB: number;
  d1BytesPerPage: number;
  doBytesPerPage: number;
  usdPerMillion: number;
}

/** When the crawl had stored `pages`, by linear interpolation between the samples around it. */
function timeAt(samples: readonly Sample[], pages: number): number {
  for (let i = 1; i < samples.length; i++) {
    const [a, b] = [samples[i - 1] as Sample, samples[i] as Sample];
    if (b.stored >= pages && b.stored > a.stored)
      return a.seconds + ((pages - a.stored) / (b.stored - a.stored)) * (b.seconds - a.seconds);
  }
  return samples.at(-1)?.seconds ?? 0;
}

export function summarize(samples: readonly Sample[]): Summary {
  const last = samples.at(-1);
  const pages = last?.stored ?? 0;
  const seconds = last?.seconds ?? 0;
  const tenth = pages / 10;
  const rate = (from: number, to: number) => (to - from) / Math.max(1e-9, timeAt(samples, to) - timeAt(samples, from));
  const firstTenth = rate(0, tenth);
  const lastTenth = rate(pages - tenth, pages);
  return {
    pages,
    seconds,
    pagesPerSecond: pages / Math.max(1e-9, seconds),
    firstTenth,
    lastTenth,
    ratio: lastTenth / Math.max(1e-9, firstTenth),
    maxHeapMiB: Math.max(0, ...samples.map((s) => s.heapMiB)),
    maxRssMiB: Math.max(0, ...samples.map((s) => s.rssMiB)),
    d1BytesPerPage: (last?.d1Bytes ?? 0) / Math.max(1, pages),
    doBytesPerPage: (last?.doBytes ?? 0) / Math.max(1, pages),
    usdPerMillion: ((last?.usd ?? 0) / Math.max(1, pages)) * 1e6,
  };
}
