import { moduleHistogram, type PlatformMetrics } from '@platform/http';
import { decisionDurationHistogram, decisionObserver, type SessionDecision } from '@platform/verification-lifecycle';

// main-api's share of `verification_decision_duration_seconds` (docs/decisions.md#metric-names-and-labels): the
// reviewers' decisions (source `manual`), in the histogram @platform/verification-lifecycle declares for both
// services, so a dashboard sums their series.

/** Adds the histogram to the app's registry (once per app) and answers the observer `onDecided` takes. */
export function reviewMetricsOf(metrics: PlatformMetrics): { observeDecision: (decision: SessionDecision) => void } {
  return { observeDecision: decisionObserver(moduleHistogram(metrics, decisionDurationHistogram)) };
}
