import {
  type ApiKeyEnvironment,
  apiKeyEnvironments,
  type Database,
  type VerificationStatus,
  type VerificationType,
  verificationStatuses,
  verificationTypes,
} from '@platform/db';
import { moduleCounter, moduleGauge, moduleHistogram, type PlatformMetrics } from '@platform/http';
import { decisionDurationHistogram, decisionObserver, type SessionDecision } from '@platform/verification-lifecycle';
import { countSessionsByStatus, reviewQueueByType } from './repository.js';

// The verification metrics (docs/decisions.md#metric-names-and-labels): sessions by status and the review queue,
// counted in the database when /metrics is scraped, and the time from submission to decision, observed as each
// decision commits. Labels are the bounded enums only (environment, type, status, outcome, source), never ids.

/** How long one count of the database answers scrapes, so scrapes cannot hammer it. */
export const METRICS_CACHE_MS = 5_000;

interface Counts {
  sessions: Array<{
    environment: ApiKeyEnvironment;
    type: VerificationType;
    status: VerificationStatus;
    sessions: number;
  }>;
  queue: Array<{ environment: ApiKeyEnvironment; type: VerificationType; depth: number; oldestSince: number | null }>;
}

export interface VerificationMetricsOptions {
  db: Database;
  /** The service's clock: the age of the oldest review and the age of the cached counts. */
  now: () => Date;
  cacheMs?: number;
  /** Told of a count that failed; the scrape shows the last counts instead. */
  onCountFailed?: (error: unknown) => void;
}

export interface VerificationMetrics {
  /** Observes a committed decision in verification_decision_duration_seconds. */
  observeDecision: (decision: SessionDecision) => void;
}

/** Adds the verification metrics to the app's registry; once per app. */
export function verificationMetricsOf(
  metrics: PlatformMetrics,
  { db, now, cacheMs = METRICS_CACHE_MS, onCountFailed }: VerificationMetricsOptions,
): VerificationMetrics {
  let last: Counts | undefined;
  let countedAt = Number.NEGATIVE_INFINITY;
  let counting: Promise<Counts | undefined> | undefined;

  const count = async (at: number): Promise<Counts | undefined> => {
    try {
      const [sessions, queue] = await Promise.all([countSessionsByStatus(db), reviewQueueByType(db)]);
      last = { sessions, queue };
    } catch (error) {
      failures.inc();
      onCountFailed?.(error);
    }
    // A failed count waits as long as a good one before the next try: a database in trouble is not asked more.
    countedAt = at;
    return last;
  };

  /** The counts, from the database at most once every cacheMs; the three gauges of one scrape share one count. */
  const counts = (): Promise<Counts | undefined> => {
    const at = now().getTime();
    if (counting !== undefined) return counting;
    if (at >= countedAt && at - countedAt < cacheMs) return Promise.resolve(last);
    counting = count(at).finally(() => {
      counting = undefined;
    });
    return counting;
  };

  moduleGauge(metrics, {
    name: 'verification_sessions',
    help: 'Verification sessions by status, type and environment',
    labelNames: ['status', 'type', 'environment'],
    async collect() {
      const current = await counts();
      if (current === undefined) return;
      this.reset();
      for (const environment of apiKeyEnvironments)
        for (const type of verificationTypes)
          for (const status of verificationStatuses) this.set({ status, type, environment }, 0);
      for (const { status, type, environment, sessions } of current.sessions)
        this.set({ status, type, environment }, sessions);
    },
  });

  const queueGauge = (name: string, help: string, read: (row: Counts['queue'][number]) => number) =>
    moduleGauge(metrics, {
      name,
      help,
      labelNames: ['environment', 'type'],
      async collect() {
        const current = await counts();
        if (current === undefined) return;
        this.reset();
        for (const environment of apiKeyEnvironments)
          for (const type of verificationTypes) this.set({ environment, type }, 0);
        for (const row of current.queue) this.set({ environment: row.environment, type: row.type }, read(row));
      },
    });
  queueGauge(
    'verification_review_queue_depth',
    'Submitted sessions waiting for a reviewer (processing, decided manually)',
    (row) => row.depth,
  );
  queueGauge(
    'verification_review_queue_oldest_age_seconds',
    'Seconds since the session waiting longest for a reviewer was submitted; 0 when none waits',
    (row) => (row.oldestSince === null ? 0 : Math.max(0, now().getTime() / 1000 - row.oldestSince)),
  );

  const failures = moduleCounter(metrics, {
    name: 'verification_metrics_count_failures_total',
    help: 'Counts of verification sessions at a scrape that failed; the scrape showed the last counts',
    labelNames: [],
    // Registered after the gauges, which start the count, so a failure of this scrape's count is in this scrape.
    collect: () => counting,
  });

  return { observeDecision: decisionObserver(moduleHistogram(metrics, decisionDurationHistogram)) };
}
