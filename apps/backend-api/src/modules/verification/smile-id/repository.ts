import type { DatabaseExecutor, NewVerificationProviderJob, VerificationProviderJob } from '@platform/db';
import { verificationProviderJobs } from '@platform/db/schema/verification';
import { and, asc, eq, inArray, lte, notInArray, sql } from 'drizzle-orm';

// The queries of Smile ID's jobs (verification_provider_jobs, provider smile_id). Sessions, documents and their
// lifecycle are read and moved through the verification module's and the documents module's functions.

const open = inArray(verificationProviderJobs.status, ['creating', 'submitted']);
const isSmileId = eq(verificationProviderJobs.provider, 'smile_id');

export async function insertJob(tx: DatabaseExecutor, values: NewVerificationProviderJob): Promise<void> {
  await tx.insert(verificationProviderJobs).values(values);
}

/**
 * The next open job due at `now` (to create at Smile ID, or to ask about), locked and skipped by whoever holds it
 * already (FOR UPDATE SKIP LOCKED: instances running the job loop take different jobs); `skip` are passed over.
 */
export async function claimDueJob(
  tx: DatabaseExecutor,
  { now, skip }: { now: Date; skip: ReadonlySet<string> },
): Promise<string | undefined> {
  const [due] = await tx
    .select({ id: verificationProviderJobs.id })
    .from(verificationProviderJobs)
    .where(
      and(
        isSmileId,
        open,
        lte(verificationProviderJobs.nextCheckAt, now),
        skip.size > 0 ? notInArray(verificationProviderJobs.id, [...skip]) : undefined,
      ),
    )
    .orderBy(asc(verificationProviderJobs.nextCheckAt), asc(verificationProviderJobs.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return due?.id;
}

/** Leaves a claimed job to this instance until `until` (the calls it is about to make), counting the attempt. */
export async function leaseJob(tx: DatabaseExecutor, id: string, until: Date, now: Date): Promise<void> {
  await tx
    .update(verificationProviderJobs)
    .set({ nextCheckAt: until, attempts: sql`${verificationProviderJobs.attempts} + 1`, updatedAt: now })
    .where(eq(verificationProviderJobs.id, id));
}

export async function findJob(db: DatabaseExecutor, id: string): Promise<VerificationProviderJob | undefined> {
  const [job] = await db.select().from(verificationProviderJobs).where(eq(verificationProviderJobs.id, id));
  return job;
}

/**
 * The job with this id, locked until the transaction ends: a callback, a reconciliation and a fallback of one job
 * take turns, and the later ones find what the first did.
 */
export async function lockJob(tx: DatabaseExecutor, id: string): Promise<VerificationProviderJob | undefined> {
  const [job] = await tx
    .select()
    .from(verificationProviderJobs)
    .where(and(eq(verificationProviderJobs.id, id), isSmileId))
    .for('update');
  return job;
}

/** Smile ID took the job: it waits for its result until `nextCheckAt` (then it is asked about). */
export async function markSubmitted(
  tx: DatabaseExecutor,
  id: string,
  change: { providerJobId: string | undefined; now: Date; nextCheckAt: Date },
): Promise<void> {
  await tx
    .update(verificationProviderJobs)
    .set({
      status: 'submitted',
      providerJobId: change.providerJobId ?? null,
      submittedAt: change.now,
      nextCheckAt: change.nextCheckAt,
      lastError: null,
      updatedAt: change.now,
    })
    .where(and(eq(verificationProviderJobs.id, id), eq(verificationProviderJobs.status, 'creating')));
}

/** The job is still open: try again at `nextCheckAt`, keeping why the last try failed (null: it did not). */
export async function markRetry(
  tx: DatabaseExecutor,
  id: string,
  change: { lastError: string | null; now: Date; nextCheckAt: Date },
): Promise<void> {
  await tx
    .update(verificationProviderJobs)
    .set({ lastError: change.lastError, nextCheckAt: change.nextCheckAt, updatedAt: change.now })
    .where(and(eq(verificationProviderJobs.id, id), open));
}

/** The job is over: its result applied (`completed`), or given up for manual review (`failed`). */
export async function closeJob(
  tx: DatabaseExecutor,
  id: string,
  change: {
    status: 'completed' | 'failed';
    resultCode: string | null;
    providerJobId: string | undefined;
    lastError: string | null;
    now: Date;
  },
): Promise<void> {
  await tx
    .update(verificationProviderJobs)
    .set({
      status: change.status,
      resultCode: change.resultCode,
      ...(change.providerJobId === undefined ? {} : { providerJobId: change.providerJobId }),
      lastError: change.lastError,
      completedAt: change.now,
      updatedAt: change.now,
    })
    .where(eq(verificationProviderJobs.id, id));
}
