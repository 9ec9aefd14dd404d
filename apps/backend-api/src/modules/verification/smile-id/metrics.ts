import { moduleCounter, moduleHistogram, type PlatformMetrics } from '@platform/http';
import type { SmileIdCall, SmileIdCallFailure } from './protocol.js';

// Smile ID's metrics (docs/decisions.md#metric-names-and-labels), labelled by bounded values only: the call, how
// it failed, a callback's outcome, why a session went to review. Never a job, session or organization id.

/** What became of a callback. */
export type CallbackOutcome =
  | 'verified'
  | 'rejected'
  | 'requires_input'
  | 'review'
  /** The job's checks recorded and the plan's next job given to Smile ID (docs/decisions.md#smile-id-job-chain). */
  | 'next_job'
  /** A business's directors asked to verify themselves, its decision waiting for them (docs/decisions.md#directors). */
  | 'directors_requested'
  | 'duplicate'
  | 'late'
  | 'unknown_job'
  | 'ignored'
  | 'refused';

/** What a reconciliation (a job status asked for a job without a result) found. */
type ReconciliationOutcome = 'applied' | 'duplicate' | 'pending' | 'failed';

/**
 * Why a session went to manual review instead of Smile ID's decision: no result in time (an outage), the job
 * refused, a result code that maps to nothing, or nothing left to send (documents erased).
 */
export type FallbackReason = 'no_result' | 'refused' | 'unmapped' | 'unsendable';

export interface SmileIdMetrics {
  /** A call ended: its duration, and its failure when it failed. */
  observeCall(call: SmileIdCall, failure: SmileIdCallFailure | undefined, seconds: number): void;
  callback(outcome: CallbackOutcome): void;
  reconciliation(outcome: ReconciliationOutcome): void;
  fallback(reason: FallbackReason): void;
}

/** Calls take from tens of milliseconds (a job status) to tens of seconds (uploading three photos on a slow day). */
const CALL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60] as const;

/** Adds Smile ID's metrics to the app's registry. */
export function smileIdMetricsOf(metrics: PlatformMetrics): SmileIdMetrics {
  const calls = moduleHistogram(metrics, {
    name: 'verification_provider_request_duration_seconds',
    help: 'Calls to an automated verification provider, by call and outcome (ok or error), in seconds',
    labelNames: ['provider', 'call', 'outcome'],
    buckets: CALL_BUCKETS,
  });
  const errors = moduleCounter(metrics, {
    name: 'verification_provider_request_errors_total',
    help: 'Calls to an automated verification provider that failed, by call and kind of failure',
    labelNames: ['provider', 'call', 'kind'],
  });
  const callbacks = moduleCounter(metrics, {
    name: 'verification_provider_callbacks_total',
    help: 'Result callbacks from an automated verification provider, by outcome (refused: bad signature)',
    labelNames: ['provider', 'outcome'],
  });
  const reconciliations = moduleCounter(metrics, {
    name: 'verification_provider_reconciliations_total',
    help: 'Jobs without a result asked about through job status, by what was found',
    labelNames: ['provider', 'outcome'],
  });
  const fallbacks = moduleCounter(metrics, {
    name: 'verification_provider_fallbacks_total',
    help: 'Sessions sent to manual review instead of an automated decision, by reason',
    labelNames: ['provider', 'reason'],
  });
  const provider = 'smile_id';
  return {
    observeCall: (call, failure, seconds) => {
      calls.observe({ provider, call, outcome: failure === undefined ? 'ok' : 'error' }, seconds);
      if (failure !== undefined) errors.inc({ provider, call, kind: failure });
    },
    callback: (outcome) => callbacks.inc({ provider, outcome }),
    reconciliation: (outcome) => reconciliations.inc({ provider, outcome }),
    fallback: (reason) => fallbacks.inc({ provider, reason }),
  };
}
