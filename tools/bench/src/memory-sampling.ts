/**
 * The resident set size of a process sampled while it works. Under load a Node.js process's RSS rises and falls by
 * tens of MiB with its garbage collections, so one reading at the end of a stretch of requests lands anywhere on
 * that saw-tooth; the lowest reading of a stretch (the floor between collections) is what a leak raises
 * (docs/decisions.md#rss-growth-from-the-floor-of-each-stretch).
 */
export interface RssRange {
  /** The lowest reading of the stretch, in KiB. */
  floorKib: number;
  /** The highest, in KiB. */
  peakKib: number;
  /** How many readings were taken (at the start, every interval, and at the end). */
  samples: number;
}

export async function sampleRssWhile<T>(
  readRssKib: () => number,
  work: () => Promise<T>,
  intervalMs = 50,
): Promise<{ result: T; rss: RssRange }> {
  const readings: number[] = [readRssKib()];
  const timer = setInterval(() => readings.push(readRssKib()), intervalMs);
  try {
    const result = await work();
    readings.push(readRssKib());
    return {
      result,
      rss: { floorKib: Math.min(...readings), peakKib: Math.max(...readings), samples: readings.length },
    };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The lowest reading of the first half of `stretches` and of the second half, for growth between them: a half's floor
 * moves less from run to run than one stretch's.
 */
export function floorsOfHalves(stretches: ReadonlyArray<Pick<RssRange, 'floorKib'>>): {
  beforeKib: number;
  afterKib: number;
} {
  if (stretches.length < 2) throw new Error('Growth needs at least two stretches of readings');
  const floorOf = (part: ReadonlyArray<Pick<RssRange, 'floorKib'>>) => Math.min(...part.map((range) => range.floorKib));
  const half = Math.ceil(stretches.length / 2);
  return { beforeKib: floorOf(stretches.slice(0, half)), afterKib: floorOf(stretches.slice(half)) };
}
