import { describe, expect, it } from 'vitest';
import { testClock } from '../../test/app-fixtures.js';
import { type ApiKeyUsageOptions, createApiKeyUsageRecorder } from './api-key-usage.js';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const C = 'cccccccc-0000-4000-8000-000000000003';

/** A recorder whose writes are kept (ids, time) and can be held until released. */
function recorder(options: Partial<ApiKeyUsageOptions> = {}) {
  const clock = testClock();
  const writes: Array<{ ids: string[]; at: string }> = [];
  const logs: Array<{ level: 'warn' | 'info'; line: string }> = [];
  let hold: Promise<void> | undefined;
  let writing = 0;
  let mostAtOnce = 0;
  const usage = createApiKeyUsageRecorder({
    now: clock.now,
    logger: {
      warn: (object, message) => void logs.push({ level: 'warn', line: `${JSON.stringify(object)} ${message}` }),
      info: (message) => void logs.push({ level: 'info', line: message }),
    },
    write: async (ids, at) => {
      writing += 1;
      mostAtOnce = Math.max(mostAtOnce, writing);
      try {
        await hold;
        writes.push({ ids, at: at.toISOString() });
      } finally {
        writing -= 1;
      }
    },
    ...options,
  });
  return {
    usage,
    clock,
    writes,
    logs,
    mostAtOnce: () => mostAtOnce,
    /** Holds every write until the returned function is called. */
    holdWrites() {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

describe('recording when API keys were last used', () => {
  it('writes a key once per minute however often it is used, and again after the minute', async () => {
    const { usage, clock, writes } = recorder();
    usage.record(A);
    usage.record(A);
    await usage.flush();
    usage.record(A);
    clock.advance(60_000);
    usage.record(A);
    await usage.flush();
    expect(writes).toEqual([{ ids: [A], at: '2026-03-02T09:00:00.000Z' }]);

    clock.advance(1);
    usage.record(A);
    await usage.flush();
    expect(writes).toEqual([
      { ids: [A], at: '2026-03-02T09:00:00.000Z' },
      { ids: [A], at: '2026-03-02T09:01:00.001Z' },
    ]);
  });

  it('writes the keys used in one turn of the event loop in one batch, and splits batches at batchSize', async () => {
    const { usage, writes } = recorder({ batchSize: 2 });
    usage.record(A);
    usage.record(B);
    usage.record(C);
    expect(writes).toEqual([]);
    await usage.flush();
    expect(writes.map((write) => write.ids)).toEqual([[A, B], [C]]);
  });

  it('returns at once while a write is held, runs one write at a time, and flush waits for every noted use', async () => {
    const { usage, writes, holdWrites, mostAtOnce } = recorder();
    const release = holdWrites();
    usage.record(A);
    await new Promise((resolve) => setImmediate(resolve));
    // The write of A is under way and held; B waits for it.
    usage.record(B);
    let flushed = false;
    const flushing = usage.flush().then(() => (flushed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushed).toBe(false);
    expect(writes).toEqual([]);
    release();
    await flushing;
    expect(writes.map((write) => write.ids)).toEqual([[A], [B]]);
    expect(mostAtOnce()).toBe(1);
  });

  it('remembers at most maxTracked keys: a forgotten key is written again (the SQL condition then skips it)', async () => {
    const { usage, writes } = recorder({ maxTracked: 2 });
    for (const id of [A, B, C]) usage.record(id);
    await usage.flush();
    usage.record(B);
    usage.record(C);
    usage.record(A);
    await usage.flush();
    expect(writes.map((write) => write.ids)).toEqual([[A, B, C], [A]]);
  });

  it('drops uses past maxPending without noting them, so a later use records them', async () => {
    const { usage, writes, holdWrites } = recorder({ maxPending: 1 });
    const release = holdWrites();
    usage.record(A);
    usage.record(B);
    release();
    await usage.flush();
    expect(writes.map((write) => write.ids)).toEqual([[A]]);
    usage.record(B);
    await usage.flush();
    expect(writes.map((write) => write.ids)).toEqual([[A], [B]]);
  });

  it('logs a failing database once, at warn, without throwing; drops the failed uses; logs the recovery', async () => {
    let failures = 2;
    const { usage, clock, logs } = recorder({
      write: async () => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        }
      },
    });
    usage.record(A);
    await usage.flush();
    usage.record(B);
    await usage.flush();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: 'warn' });
    expect(logs[0]!.line).toContain('Could not record when API keys were last used');
    expect(logs[0]!.line).toContain('"keys":1');

    // A's failed use is not retried within the minute; after it, its next use is written.
    usage.record(A);
    await usage.flush();
    expect(logs).toHaveLength(1);
    clock.advance(60_001);
    usage.record(A);
    await usage.flush();
    expect(logs.map((log) => log.level)).toEqual(['warn', 'info']);
  });
});
