import postgres from 'postgres';

// What the database's connections were doing while a load ran, sampled from pg_stat_activity: running a
// statement, waiting for a lock, or idle inside a transaction waiting for the application's next
// statement (`idle in transaction`, ClientRead) while holding whatever that transaction locked.

export interface WaitSample {
  /** `active`, `idle in transaction`, `idle`, ... with the wait event, e.g. `active Lock:transactionid`. */
  label: string;
  /** Share of sampled connection-moments, 0 to 1. */
  share: number;
}

export interface WaitSampler {
  stop(): Promise<WaitSample[]>;
}

/** Samples the connections to the database of `url` (other than its own) every `intervalMs`. */
export function sampleDatabaseWaits(url: string, intervalMs = 50): WaitSampler {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const counts = new Map<string, number>();
  let total = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const rows = await sql<{ label: string }[]>`
        select state || coalesce(' ' || wait_event_type || ':' || wait_event, '') as label
        from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`;
      for (const { label } of rows) {
        counts.set(label, (counts.get(label) ?? 0) + 1);
        total += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await sql.end({ timeout: 5 });
      return [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([label, count]) => ({ label, share: total > 0 ? count / total : 0 }));
    },
  };
}

export function renderWaits(samples: readonly WaitSample[]): string {
  return samples.map((sample) => `  ${(sample.share * 100).toFixed(1).padStart(5)}%  ${sample.label}`).join('\n');
}
