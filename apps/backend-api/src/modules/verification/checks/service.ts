import { randomUUID } from 'node:crypto';
import type { DatabaseExecutor, VerificationCheck, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { checkEvidenceKey } from '@platform/verification-lifecycle';
import type { CheckConsequence, CheckResult } from './check-results.js';
import { insertChecks, latestCheckTime, listSubmissionChecks } from './repository.js';

// A submission's checks, recorded and read back (docs/decisions.md#verification-checks). The evidence (the
// person's data a check saw) is sealed by the vault under a key bound to the session and the check.

/**
 * Records results of the session's current submission (`submittedAt`), in the caller's transaction, each after every
 * result recorded before it for the submission, even at the same moment of the clock: the newest of a kind counts.
 */
export async function recordChecks(
  tx: DatabaseExecutor,
  vault: DocumentVault,
  session: Pick<VerificationSession, 'id' | 'type'>,
  submittedAt: Date,
  results: readonly CheckResult[],
  now: Date,
): Promise<void> {
  if (results.length === 0) return;
  const latest = await latestCheckTime(tx, session.id, submittedAt);
  const start = latest === undefined || latest < now ? now.getTime() : latest.getTime() + 1;
  await insertChecks(
    tx,
    results.map((result, index) => {
      const id = randomUUID();
      const evidence =
        result.evidence === undefined
          ? null
          : vault.seal({
              key: checkEvidenceKey(session, id),
              bytes: Buffer.from(JSON.stringify(result.evidence)),
              contentType: 'application/json',
            }).sealed;
      return {
        id,
        sessionId: session.id,
        submittedAt,
        kind: result.kind,
        source: result.source,
        outcome: result.outcome,
        code: result.code ?? null,
        summary: result.summary,
        details: {
          ...(result.details ?? {}),
          // The consequence a failure named is kept with it, so the policy can be applied again from the rows.
          ...(result.consequence === undefined ? {} : { consequence: result.consequence }),
        },
        evidence,
        providerJobId: result.providerJobId ?? null,
        // Results recorded together keep their order.
        createdAt: new Date(start + index),
      };
    }),
  );
}

/** The results of the session's current submission, as the policy reads them. */
export async function submissionResults(
  tx: DatabaseExecutor,
  session: Pick<VerificationSession, 'id' | 'submittedAt'>,
): Promise<CheckResult[]> {
  if (session.submittedAt === null) return [];
  const rows = await listSubmissionChecks(tx, session.id, session.submittedAt);
  return rows.map(resultOfRow);
}

function resultOfRow(row: VerificationCheck): CheckResult {
  const { consequence, ...details } = row.details as { consequence?: CheckConsequence } & Record<string, unknown>;
  return {
    kind: row.kind,
    source: row.source,
    outcome: row.outcome,
    code: row.code ?? undefined,
    summary: row.summary,
    details,
    consequence,
    providerJobId: row.providerJobId ?? undefined,
  };
}

/** A check's sealed evidence, opened (for the reviewer and the export); undefined when there is none or it was erased. */
export function openCheckEvidence(
  vault: DocumentVault,
  session: Pick<VerificationSession, 'id' | 'type'>,
  row: Pick<VerificationCheck, 'id' | 'evidence'>,
): Record<string, unknown> | undefined {
  if (row.evidence === null) return undefined;
  const opened = vault.open(checkEvidenceKey(session, row.id), Buffer.from(row.evidence));
  return JSON.parse(opened.bytes.toString('utf8')) as Record<string, unknown>;
}
