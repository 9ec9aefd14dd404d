// How tests wait, and where they find nothing listening, without depending on how fast the machine is (CI
// shares two cores between every suite; see docs/testing.md#rules). Imported by tests as '#test-timing'.
import { createServer } from 'node:net';

/**
 * How long `eventually` waits before it fails: long, because only a test that is failing anyway waits this
 * long, while a loaded machine can make a condition that does hold take seconds to show.
 */
export const EVENTUALLY_TIMEOUT_MS = 30_000;

/**
 * The limit of a child process a test waits for synchronously (`spawnSync`, which blocks vitest's own test limit
 * while it runs): only stops one that hangs. Starting tsx on a whole app or migrating a PGlite folder takes seconds
 * alone and took over 120 s in CI beside every other suite; two in a row still end within vitest's 10-minute limit.
 */
export const SUBPROCESS_TIMEOUT_MS = 280_000;

export interface EventuallyOptions {
  /** Fails after this long (EVENTUALLY_TIMEOUT_MS by default). */
  timeoutMs?: number;
  /** Pause between two checks (20 ms by default). */
  intervalMs?: number;
  /** What was waited for, for the failure message. */
  what?: string;
}

/**
 * Polls `check` until it gives a value other than undefined or false, and returns that value: the way to
 * wait for something to happen, instead of sleeping a fixed time that a busy machine may need more of.
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: EventuallyOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? EVENTUALLY_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result !== undefined && result !== false) return result;
    if (Date.now() > deadline)
      throw new Error(`${options.what ?? 'The condition'} did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
}

/**
 * Lets real time pass in a test that shows something does NOT happen (a stopped job sends nothing more, a
 * frozen connection passes nothing), after the test has seen everything that should happen: there is no
 * condition to poll for. A busy machine can only make such a check miss a fault, never fail a correct run.
 * Never use it to wait for something to happen: poll with `eventually`.
 */
export function quietPeriod(ms = 200): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on: one the system just handed out for port 0 and got back,
 * so connecting to it is refused (ECONNREFUSED). Unlike a fixed "unused" port, it cannot be one that another
 * program on the machine happens to use. For fetch, `http://127.0.0.1:9` also never connects: port 9 is on the
 * Fetch standard's list of blocked ports, refused before any connection ("bad port").
 */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('No port was assigned');
  return address.port;
}
