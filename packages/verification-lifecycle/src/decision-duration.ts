import { DECISION_DURATION_BUCKETS, type SessionDecision } from './lifecycle.js';

// `verification_decision_duration_seconds` (docs/decisions.md#metric-names-and-labels), declared once: backend-api
// fills it with the sandbox's and Smile ID's decisions, main-api with the reviewers', each in its own registry, and a
// dashboard sums the two services' series because both declare it from here. Labels are the bounded enums only.

export const decisionDurationHistogram = {
  name: 'verification_decision_duration_seconds',
  help: 'Time from submission to decision of verification sessions, in seconds',
  labelNames: ['type', 'environment', 'outcome', 'source'] as const,
  buckets: DECISION_DURATION_BUCKETS,
};

type DecisionLabel = (typeof decisionDurationHistogram.labelNames)[number];

/** The observer `onDecided` takes: each committed decision into the histogram, under its labels. */
export function decisionObserver(histogram: {
  observe(labels: Record<DecisionLabel, string>, value: number): void;
}): (decision: SessionDecision) => void {
  return ({ type, environment, outcome, source, waitedSeconds }) =>
    histogram.observe({ type, environment, outcome, source }, waitedSeconds);
}
