import { createApiKey } from '@platform/api-keys';
import { auditEvents, verificationChecks, verificationSessions, webhookEvents } from '@platform/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useCaptureRoutes } from '../../../test/capture-route-fixtures.js';
import { createdSessionId } from '../../../test/verification-fixtures.js';
import { recordChecks, storeVerifiedOutputs, type VerifiedOutputs } from './checks/index.js';

// GET /v1/verify/sessions/:id with its checks and `expand=verified_outputs` (docs/decisions.md#verified-data).

const setup = useCaptureRoutes();
const { database, clock, kycSession, erase, logs } = setup;

const person = {
  type: 'kyc',
  person: {
    firstName: 'Zawadi',
    middleName: null,
    lastName: 'Mwendwa-Fake',
    dateOfBirth: '1991-02-03',
    idType: 'national_id',
    idNumber: '31415926',
    documentExpiry: null,
    nationality: 'KEN',
    faceComparedWith: 'registry_photo',
  },
} satisfies VerifiedOutputs;

async function readerKey(organizationId: string) {
  return createApiKey(database.db, { organizationId, environment: 'live', permissions: ['verified_data:read'] });
}

/** A verified session of `sessionId` with one check (its consequence and evidence kept) and sealed verified data. */
async function verifySession(sessionId: string) {
  const submittedAt = clock.now();
  await database.db
    .update(verificationSessions)
    .set({ status: 'verified', submittedAt, completedAt: submittedAt })
    .where(eq(verificationSessions.id, sessionId));
  const session = { id: sessionId, type: 'kyc' as const };
  await recordChecks(
    database.db,
    setup.vault,
    session,
    submittedAt,
    [
      {
        kind: 'id_registry',
        source: 'test',
        outcome: 'passed',
        summary: 'The ID number and names match the registry',
        details: { matched: ['idNumber'] },
        consequence: { decision: 'rejected', reason: 'The ID number is not in the registry' },
        evidence: { idNumber: person.person.idNumber },
      },
    ],
    submittedAt,
  );
  await storeVerifiedOutputs(database.db, setup.vault, session, person);
}

const get = (apiKey: string, sessionId: string, query = '') =>
  setup.app.inject({ method: 'GET', url: `/v1/verify/sessions/${sessionId}${query}`, headers: setup.key(apiKey) });

const auditRows = (sessionId: string) =>
  database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.targetId, sessionId), eq(auditEvents.action, 'verification.verified_data_viewed')));

describe('GET /v1/verify/sessions/:id and its verified data', () => {
  it('shows the latest checks to any key, without their evidence or consequence, and no verified data', async () => {
    const sessionId = await kycSession();
    await verifySession(sessionId);
    const response = await get(setup.acme.liveKey, sessionId);
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.checks).toEqual([
      {
        kind: 'id_registry',
        source: 'test',
        outcome: 'passed',
        code: null,
        summary: 'The ID number and names match the registry',
        details: { matched: ['idNumber'] },
        createdAt: clock.now().toISOString(),
      },
    ]);
    expect(data).not.toHaveProperty('verifiedOutputs');
    expect(response.body).not.toContain(person.person.idNumber);
    expect(await auditRows(sessionId)).toEqual([]);
  });

  it('answers the verified data to a key with verified_data:read and records the read with the key', async () => {
    const sessionId = await kycSession();
    await verifySession(sessionId);
    const key = await readerKey(setup.acme.id);
    const response = await get(key.secret, sessionId, '?expand=verified_outputs');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.verifiedOutputs).toEqual(person);
    expect(response.json().data.checks).toHaveLength(1);
    expect(await auditRows(sessionId)).toEqual([
      expect.objectContaining({
        organizationId: setup.acme.id,
        actorUserId: null,
        targetType: 'verification_session',
        details: { apiKeyId: key.id },
        requestId: expect.any(String),
      }),
    ]);
    expect(logs.text()).not.toContain(person.person.idNumber);
    expect(logs.text()).not.toContain(person.person.lastName);
  });

  it('refuses the expansion to a key without the permission with 403 naming it, and records nothing', async () => {
    const sessionId = await kycSession();
    await verifySession(sessionId);
    const response = await get(setup.acme.liveKey, sessionId, '?expand=verified_outputs');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ success: false, code: 'forbidden' });
    expect(response.json().error).toContain('verified_data:read');
    expect(response.body).not.toContain(person.person.idNumber);
    expect(await auditRows(sessionId)).toEqual([]);
  });

  it('refuses any other expansion with a 400 naming expand', async () => {
    const sessionId = await kycSession();
    const key = await readerKey(setup.acme.id);
    for (const query of ['?expand=checks', '?expand=everything', '?expand=']) {
      const response = await get(key.secret, sessionId, query);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('expand');
    }
  });

  it("answers 404 for another organization's session, even to a key with the permission, and records nothing", async () => {
    const sessionId = await kycSession();
    await verifySession(sessionId);
    const key = await readerKey(setup.other.id);
    const response = await get(key.secret, sessionId, '?expand=verified_outputs');
    expect(response.statusCode).toBe(404);
    expect(await auditRows(sessionId)).toEqual([]);
  });

  it('answers null before a verified decision', async () => {
    const sessionId = await kycSession();
    const key = await readerKey(setup.acme.id);
    const response = await get(key.secret, sessionId, '?expand=verified_outputs');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ checks: [], verifiedOutputs: null });
  });

  it('erases the verified data and the checks’ evidence with the documents; the checks stay', async () => {
    const sessionId = await kycSession();
    await verifySession(sessionId);
    expect((await erase(sessionId)).statusCode).toBe(200);
    const [row] = await database.db
      .select({ verifiedOutputs: verificationSessions.verifiedOutputs })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, sessionId));
    expect(row).toEqual({ verifiedOutputs: null });
    const checks = await database.db
      .select({ evidence: verificationChecks.evidence, outcome: verificationChecks.outcome })
      .from(verificationChecks)
      .where(eq(verificationChecks.sessionId, sessionId));
    expect(checks).toEqual([{ evidence: null, outcome: 'passed' }]);
    const key = await readerKey(setup.acme.id);
    const response = await get(key.secret, sessionId, '?expand=verified_outputs');
    expect(response.json().data).toMatchObject({ verifiedOutputs: null, checks: [{ outcome: 'passed' }] });
  });

  it('answers nothing when the audit record cannot be written', async () => {
    const sessionId = await kycSession();
    await verifySession(sessionId);
    const key = await readerKey(setup.acme.id);
    await database.db.execute(
      sql`alter table audit_events add constraint no_reads_test check (action <> 'verification.verified_data_viewed') not valid`,
    );
    try {
      const response = await get(key.secret, sessionId, '?expand=verified_outputs');
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain(person.person.idNumber);
    } finally {
      await database.db.execute(sql`alter table audit_events drop constraint no_reads_test`);
    }
  });

  it("never puts the verified data in a verified session's callback", async () => {
    const sessionId = await createdSessionId(setup.app, setup.acme.testKey, {
      type: 'kyc',
      externalEndUserId: 'person-cb',
      callbackUrl: 'https://api.example.com/hooks',
    });
    await storeVerifiedOutputs(database.db, setup.vault, { id: sessionId, type: 'kyc' }, person);
    for (const status of ['processing', 'verified']) {
      const moved = await setup.app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${sessionId}/test-decision`,
        headers: { ...setup.key(setup.acme.testKey), 'x-idempotency-key': `decide-${status}` },
        payload: { status },
      });
      expect(moved.statusCode).toBe(200);
    }
    const events = await database.db
      .select({ type: webhookEvents.type, payload: webhookEvents.payload })
      .from(webhookEvents)
      .where(sql`${webhookEvents.payload} #>> '{data,sessionId}' = ${sessionId}`);
    expect(
      events.map((event) => event.type),
      JSON.stringify(events),
    ).toContain('verification_session.verified');
    const sent = JSON.stringify(events);
    for (const field of ['verifiedOutputs', 'checks', person.person.idNumber, person.person.lastName, 'dateOfBirth'])
      expect(sent).not.toContain(field);
  });
});
