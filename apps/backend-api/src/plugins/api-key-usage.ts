/** How often at most one key's lastUsedAt is written, by one instance and (through the SQL) by all of them. */
const API_KEY_USAGE_INTERVAL_MS = 60_000;

interface ApiKeyUsageLogger {
  warn(object: object, message: string): void;
  info(message: string): void;
}

export interface ApiKeyUsageOptions {
  /**
   * Stores that these keys were used at `now`, leaving alone the ones whose stored use is newer than
   * `now - intervalMs` (touchApiKeys). Called with at most `batchSize` ids, one call at a time.
   */
  write(ids: string[], now: Date, intervalMs: number): Promise<unknown>;
  now: () => Date;
  logger: ApiKeyUsageLogger;
  intervalMs?: number;
  /** Keys whose last recording this instance remembers; past it the oldest is forgotten. */
  maxTracked?: number;
  /** Uses waiting for their write; past it new ones are dropped (and recorded on a later use). */
  maxPending?: number;
  batchSize?: number;
}

export interface ApiKeyUsageRecorder {
  /** Notes a use of the key; returns at once, the write happens later and never throws. */
  record(keyId: string): void;
  /** Resolves once every use noted so far has been written (or its write failed). */
  flush(): Promise<void>;
}

/**
 * Records when API keys were last used, off the requests' path: `record` only notes the key, and a single
 * writer stores the noted keys in batches (one statement per batch, one batch at a time, so recording never
 * takes more than one database connection). A key noted in the last `intervalMs` is not noted again: the
 * memory is bounded (the oldest entries are forgotten first, which at worst costs a write the SQL condition
 * then skips). A failed write is dropped, not retried: the key is written on its first use after the interval,
 * and the failure is logged once until a write succeeds again.
 */
export function createApiKeyUsageRecorder(options: ApiKeyUsageOptions): ApiKeyUsageRecorder {
  const intervalMs = options.intervalMs ?? API_KEY_USAGE_INTERVAL_MS;
  const maxTracked = options.maxTracked ?? 10_000;
  const maxPending = options.maxPending ?? 10_000;
  const batchSize = options.batchSize ?? 500;
  // Key id -> when this instance last noted it (ms); Maps keep insertion order, so the first is the oldest.
  const noted = new Map<string, number>();
  const pending = new Set<string>();
  let writing: Promise<void> | undefined;
  let failing = false;

  async function writeBatch(ids: string[]): Promise<void> {
    try {
      await options.write(ids, options.now(), intervalMs);
      if (failing) {
        failing = false;
        options.logger.info('Recording when API keys were last used works again');
      }
    } catch (error) {
      if (failing) return;
      failing = true;
      options.logger.warn(
        { err: error, keys: ids.length },
        'Could not record when API keys were last used (requests are not affected; retried on a later use)',
      );
    }
  }

  function startWriting(): void {
    if (writing !== undefined || pending.size === 0) return;
    writing = (async () => {
      // Let the uses of this turn of the event loop join the first batch.
      await new Promise((resolve) => setImmediate(resolve));
      while (pending.size > 0) {
        const batch = [...pending].slice(0, batchSize);
        for (const id of batch) pending.delete(id);
        await writeBatch(batch);
      }
    })().finally(() => {
      writing = undefined;
      startWriting();
    });
  }

  return {
    record(keyId) {
      const at = options.now().getTime();
      const last = noted.get(keyId);
      // As the SQL condition: written again only once more than the interval has passed.
      if (last !== undefined && at >= last && at - last <= intervalMs) return;
      if (pending.size >= maxPending) return;
      noted.delete(keyId);
      noted.set(keyId, at);
      if (noted.size > maxTracked) noted.delete(noted.keys().next().value as string);
      pending.add(keyId);
      startWriting();
    },
    async flush() {
      while (writing !== undefined) await writing;
    },
  };
}
