import { describe, expect, it } from 'vitest';
import { floorsOfHalves, sampleRssWhile } from './memory-sampling.js';

describe('sampleRssWhile', () => {
  it('reads at the start, while the work runs and at the end, and keeps the lowest and highest reading', async () => {
    // A saw-tooth: each reading comes from the next value, as a process's RSS between collections would.
    const values = [300, 250, 410, 220, 390, 260];
    let next = 0;
    const read = () => values[Math.min(next++, values.length - 1)] ?? 0;
    let sampledWhileWorking = 0;
    const { result, rss } = await sampleRssWhile(
      read,
      async () => {
        // Poll for the interval's readings instead of waiting a fixed time, so a slow machine cannot fail it.
        while (next < values.length - 1) await new Promise((resolve) => setTimeout(resolve, 1));
        sampledWhileWorking = next - 1;
        return 'done';
      },
      1,
    );
    expect(result).toBe('done');
    expect(sampledWhileWorking).toBeGreaterThanOrEqual(4);
    expect(rss).toEqual({ floorKib: 220, peakKib: 410, samples: next });
  });

  it('stops sampling when the work fails', async () => {
    let readings = 0;
    const failing = sampleRssWhile(
      () => ++readings,
      async () => {
        throw new Error('load failed');
      },
      1,
    );
    await expect(failing).rejects.toThrow('load failed');
    const afterFailure = readings;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readings).toBe(afterFailure);
  });
});

describe('floorsOfHalves', () => {
  it("takes the lowest floor of each half, so one stretch's low reading does not decide growth alone", () => {
    const floors = [229, 219, 192, 205].map((floorKib) => ({ floorKib }));
    expect(floorsOfHalves(floors)).toEqual({ beforeKib: 219, afterKib: 192 });
    expect(floorsOfHalves([{ floorKib: 100 }, { floorKib: 120 }])).toEqual({ beforeKib: 100, afterKib: 120 });
    expect(() => floorsOfHalves([{ floorKib: 100 }])).toThrow(/two stretches/);
  });
});
