// How every suite waits and finds a port nothing listens on (vitest.timing.ts at the repository root).
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closedPort, EVENTUALLY_TIMEOUT_MS, eventually, SUBPROCESS_TIMEOUT_MS } from '#test-timing';
import shared from '../../vitest.shared.js';

describe('eventually(check)', () => {
  it('polls until the check gives a value, and returns it', async () => {
    let calls = 0;
    const value = await eventually(async () => {
      calls += 1;
      return calls >= 3 ? { calls } : undefined;
    });
    expect(value).toEqual({ calls: 3 });
  });

  it('treats false as "not yet" and true as done', async () => {
    let calls = 0;
    expect(await eventually(() => ++calls === 2)).toBe(true);
    expect(calls).toBe(2);
  });

  it('fails naming what it waited for once its time is up, 30 s by default', async () => {
    // A check that never holds fails whatever the machine's speed; only the limit is short here.
    await expect(eventually(() => false, { timeoutMs: 30, what: 'The impossible' })).rejects.toThrow(
      'The impossible did not hold within 30 ms',
    );
    expect(EVENTUALLY_TIMEOUT_MS).toBe(30_000);
  });
});

describe('SUBPROCESS_TIMEOUT_MS', () => {
  it("leaves room for two child processes a test waits for within vitest's own test limit", () => {
    const testTimeout = shared.test?.testTimeout ?? 0;
    expect(SUBPROCESS_TIMEOUT_MS).toBeGreaterThanOrEqual(120_000);
    expect(2 * SUBPROCESS_TIMEOUT_MS).toBeLessThan(testTimeout);
  });
});

describe("vitest's expect.poll", () => {
  it('waits as long as eventually() by default, not its own 1 s', () => {
    expect(shared.test?.expect?.poll?.timeout).toBe(EVENTUALLY_TIMEOUT_MS);
  });

  it('applies it in a suite built on the shared config, as this one is', async () => {
    let calls = 0;
    // Fails at vitest's own 1 s default: the condition holds only after 1.2 s of polling.
    const started = Date.now();
    await expect
      .poll(() => {
        calls += 1;
        return Date.now() - started >= 1_200;
      })
      .toBe(true);
    expect(calls).toBeGreaterThan(1);
  });
});

describe('closedPort()', () => {
  it('gives a port on 127.0.0.1 where a connection is refused', async () => {
    const port = await closedPort();
    expect(port).toBeGreaterThan(0);
    const refused = await new Promise<string | undefined>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});
