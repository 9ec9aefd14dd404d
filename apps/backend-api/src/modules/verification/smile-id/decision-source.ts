import type { Database } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import type { PlatformMetrics } from '@platform/http';
import type { SubmissionListener } from '../decisions/index.js';
import type { LifecycleOptions } from '../index.js';
import { createSmileIdHttpClient, type SmileIdClient } from './client.js';
import type { SmileIdContext, SmileIdLogger } from './context.js';
import { smileIdMetricsOf } from './metrics.js';
import { type SmileIdJobs, startSmileIdJobs } from './schedule.js';
import { recordJobOnSubmission } from './service.js';
import type { SmileIdSettings } from './settings.js';

/** The smile_id decision source, built once per app: what submissions tell it, its job loop, its callback's context. */
export interface SmileIdDecisions {
  submissions: SubmissionListener;
  context: SmileIdContext;
  /** Started when the app is ready (createSmileIdDecisions does not start it), stopped when it closes. */
  start(): SmileIdJobs;
}

export interface SmileIdDecisionOptions {
  db: Database;
  vault: DocumentVault;
  now: () => Date;
  settings: SmileIdSettings;
  metrics: PlatformMetrics;
  logger: SmileIdLogger;
  lifecycle: LifecycleOptions;
  /** Starts each call's time limit (tests decide when an unanswered call times out); AbortSignal.timeout by default. */
  timeout?: ((ms: number) => AbortSignal) | undefined;
  /** Replaces the HTTP client (tests of the adapter's decisions alone). */
  client?: SmileIdClient | undefined;
  /** How a business's directors' own sessions are made; without it none are (docs/decisions.md#directors). */
  directors?: SmileIdContext['directors'];
}

export function createSmileIdDecisions(options: SmileIdDecisionOptions): SmileIdDecisions {
  const { settings, now } = options;
  const metrics = smileIdMetricsOf(options.metrics);
  const client =
    options.client ??
    createSmileIdHttpClient({
      partnerId: settings.partnerId,
      apiKey: settings.apiKey,
      baseUrl: settings.baseUrl,
      timeoutMs: settings.timeoutMs,
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      now,
      allowHttp: settings.allowHttp,
      observe: metrics.observeCall,
    });
  const context: SmileIdContext = {
    db: options.db,
    vault: options.vault,
    client,
    credentials: { partnerId: settings.partnerId, apiKey: settings.apiKey },
    now,
    callbackUrl: settings.callbackUrl,
    reconcileAfterMs: settings.reconcileAfterMs,
    fallbackAfterMs: settings.fallbackAfterMs,
    // A creation is a prep_upload and an upload, preceded by a job status after a lost answer: room for all three.
    leaseMs: 4 * settings.timeoutMs,
    lifecycle: options.lifecycle,
    metrics,
    logger: options.logger,
    kick: () => jobs?.kick(),
    directors: options.directors,
  };
  let jobs: SmileIdJobs | undefined;
  return {
    context,
    submissions: {
      submitted: recordJobOnSubmission,
      committed: () => jobs?.kick(),
    },
    start: () => {
      jobs ??= startSmileIdJobs(context, { intervalMs: settings.intervalMs });
      return jobs;
    },
  };
}
