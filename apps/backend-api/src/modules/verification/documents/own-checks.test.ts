import { verificationSessions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { ID_NUMBER, useCaptureRoutes } from '../../../../test/capture-route-fixtures.js';
import { uploadDocument } from '../../../../test/document-fixtures.js';
import { createdSessionId } from '../../../../test/verification-fixtures.js';

// This service's own checks at every kyc submission, through the API (docs/decisions.md#own-checks): the document's
// expiry, the person's age and the same ID number for another end user, recorded with source `service` beside the
// decision source's, and decided by the policy with them. The clock stands at 2 March 2026, Nairobi's day too.

const setup = useCaptureRoutes();
const { clock } = setup;

async function submitted(
  externalEndUserId: string,
  body: Record<string, string>,
  key = setup.acme.testKey,
): Promise<{ sessionId: string; status: string; lastError: string | null; resubmitDocuments: string[] | null }> {
  const sessionId = await createdSessionId(setup.app, key, { type: 'kyc', externalEndUserId });
  await uploadSet(sessionId, key);
  clock.advance(1_000);
  const response = await setup.submit(sessionId, { idType: 'national_id', ...body }, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function uploadSet(sessionId: string, key: string) {
  for (const kind of ['id_document_front', 'id_document_back', 'selfie']) {
    expect((await uploadDocument(setup.app, key, sessionId, kind, setup.portrait)).statusCode).toBe(201);
  }
}

/** The session's checks this service made, as `kind:outcome`. */
async function ownChecksOf(sessionId: string, key = setup.acme.testKey) {
  const response = await setup.app.inject({
    method: 'GET',
    url: `/v1/verify/sessions/${sessionId}`,
    headers: setup.key(key),
  });
  expect(response.statusCode, response.body).toBe(200);
  const checks: { kind: string; source: string; outcome: string; details: Record<string, unknown> }[] =
    response.json().data.checks;
  return checks.filter((check) => check.source === 'service');
}

const outcomes = (checks: { kind: string; outcome: string }[]) =>
  checks.map(({ kind, outcome }) => `${kind}:${outcome}`);

const AMANI = { firstName: 'Amani', lastName: 'Otieno', dateOfBirth: '1994-05-17', documentExpiry: '2031-06-30' };

describe('own checks at the submission', () => {
  it('verifies a test session with a valid document, an adult and a test ID number, listing the checks made', async () => {
    const session = await submitted('person-1', { idNumber: '00000001', ...AMANI });
    expect(session.status).toBe('verified');
    expect(outcomes(await ownChecksOf(session.sessionId))).toEqual([
      'document_expiry:passed',
      'age:passed',
      'duplicate_id_number:not_applicable',
    ]);
  });

  it('refuses a person under 18, whatever the registry says, and passes one 18 today', async () => {
    const under = await submitted('person-1', { idNumber: '00000001', ...AMANI, dateOfBirth: '2008-03-03' });
    expect(under).toMatchObject({ status: 'rejected', lastError: 'The person is younger than 18, the minimum age' });
    expect(outcomes(await ownChecksOf(under.sessionId))).toContain('age:failed');
    const eighteen = await submitted('person-2', { idNumber: '00000001', ...AMANI, dateOfBirth: '2008-03-02' });
    expect(eighteen.status).toBe('verified');
  });

  it('asks for the ID document again when it expired before the submission', async () => {
    const session = await submitted('person-1', { idNumber: '00000001', ...AMANI, documentExpiry: '2026-03-01' });
    expect(session).toMatchObject({
      status: 'requires_input',
      resubmitDocuments: ['id_document_front', 'id_document_back'],
      lastError: 'The ID document has expired: send a valid one, with its details',
    });
  });

  it('has nothing to check of what was not stated', async () => {
    const session = await submitted('person-1', { idNumber: ID_NUMBER });
    expect(session.status).toBe('processing');
    expect(outcomes(await ownChecksOf(session.sessionId))).toEqual([
      'document_expiry:not_applicable',
      'age:not_applicable',
      'duplicate_id_number:passed',
    ]);
  });

  it('flags the same ID number for another end user of the organization, not for the same one or another organization', async () => {
    const first = await submitted('person-1', { idNumber: ID_NUMBER });
    const again = await submitted('person-1', { idNumber: ID_NUMBER });
    expect((await ownChecksOf(again.sessionId)).find((check) => check.kind === 'duplicate_id_number')?.outcome).toBe(
      'passed',
    );
    const other = await submitted('person-2', { idNumber: ` ${ID_NUMBER} ` });
    const duplicate = (await ownChecksOf(other.sessionId)).find((check) => check.kind === 'duplicate_id_number');
    expect(duplicate).toMatchObject({ outcome: 'failed', details: { otherSessions: 2 } });
    expect(duplicate?.details.sessionIds).toEqual(expect.arrayContaining([first.sessionId, again.sessionId]));
    // Another organization, and the live environment, are compared apart.
    const elsewhere = await submitted('person-3', { idNumber: ID_NUMBER }, setup.other.testKey);
    const live = await submitted('person-3', { idNumber: ID_NUMBER }, setup.acme.liveKey);
    for (const [session, key] of [
      [elsewhere, setup.other.testKey],
      [live, setup.acme.liveKey],
    ] as const) {
      const check = (await ownChecksOf(session.sessionId, key)).find((found) => found.kind === 'duplicate_id_number');
      expect(check?.outcome).toBe('passed');
    }
    // The number is kept only as its digest.
    const [row] = await setup.database.db
      .select({ digest: verificationSessions.idNumberDigest })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, other.sessionId));
    expect(row?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.digest).not.toContain(ID_NUMBER);
  });
});

describe.skipIf(missing(postgresServer))('own checks under concurrency (needs PostgreSQL: set DATABASE_URL)', () => {
  it('flags one of two end users submitting the same ID number at the same moment', async () => {
    const sessions: string[] = [];
    for (const person of ['person-1', 'person-2', 'person-3', 'person-4']) {
      const sessionId = await createdSessionId(setup.app, setup.acme.liveKey, {
        type: 'kyc',
        externalEndUserId: person,
      });
      await uploadSet(sessionId, setup.acme.liveKey);
      sessions.push(sessionId);
    }
    clock.advance(1_000);
    const answers = await Promise.all(
      sessions.map((sessionId) =>
        setup.submit(sessionId, { idType: 'national_id', idNumber: ID_NUMBER }, setup.acme.liveKey),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    const flagged: number[] = [];
    for (const sessionId of sessions) {
      const check = (await ownChecksOf(sessionId, setup.acme.liveKey)).find(
        (found) => found.kind === 'duplicate_id_number',
      );
      flagged.push(Number(check?.details.otherSessions ?? 0));
    }
    // Taking turns, the n-th submission sees the n-1 before it: 0, 1, 2 and 3 others, in some order.
    expect(flagged.sort()).toEqual([0, 1, 2, 3]);
  });
});
