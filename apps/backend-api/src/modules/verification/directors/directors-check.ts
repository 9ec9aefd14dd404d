import type { VerificationSession } from '@platform/db';
import { finalStatuses } from '@platform/verification-lifecycle';
import type { CheckResult } from '../checks/index.js';

// The `directors` check of a kyb session (docs/decisions.md#directors): made once every director's own session has
// ended; passed when each was verified, failed otherwise (a person looks: the policy keeps `directors` failures for
// review), and not made while one is still open.

export function directorsCheckOf(
  directors: readonly Pick<VerificationSession, 'status'>[],
  source: CheckResult['source'],
): CheckResult | undefined {
  if (directors.length === 0) {
    return {
      kind: 'directors',
      source,
      outcome: 'attention',
      code: 'no_directors',
      summary: 'The registry named no director to verify.',
    };
  }
  if (!directors.every((director) => finalStatuses.includes(director.status))) return undefined;
  const verified = directors.filter((director) => director.status === 'verified').length;
  if (verified === directors.length) {
    return {
      kind: 'directors',
      source,
      outcome: 'passed',
      summary: `All ${directors.length} directors verified themselves.`,
      details: { directors: directors.length, verified },
    };
  }
  return {
    kind: 'directors',
    source,
    outcome: 'failed',
    code: 'director_not_verified',
    summary: `${directors.length - verified} of ${directors.length} directors were not verified.`,
    details: { directors: directors.length, verified },
  };
}
