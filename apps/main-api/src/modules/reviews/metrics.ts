import { moduleHistogram, type PlatformMetrics } from '@platform/http';
import { DECISION_DURATION_BUCKETS, type SessionDecision } from '@platform/verification-lifecycle';

// main-api's share of `verification_decision_duration_seconds` (docs/decisions.md#metric-names-and-labels): the
// reviewers' decisions (source `manual`), with the same name, labels and buckets as backend-api's histogram of the
// sandbox's, so a dashboard sums the two services' series. Labels are the bounded enums only, never an id.

/** Adds the histogram to the app's registry (once per app) and answers the observer `onDecided` takes. */
export function reviewMetricsOf(metrics: PlatformMetrics): { observeDecision: (decision: SessionDecision) => void } {
  const durations = moduleHistogram(metrics, {
    name: 'verification_decision_duration_seconds',
    help: 'Time from submission to decision of verification sessions, in seconds',
    labelNames: ['type', 'environment', 'outcome', 'source'],
    buckets: DECISION_DURATION_BUCKETS,
  });
  return {
    observeDecision: ({ type, environment, outcome, source, waitedSeconds }) =>
      durations.observe({ type, environment, outcome, source }, waitedSeconds),
  };
}
