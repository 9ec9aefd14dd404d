import { randomUUID } from 'node:crypto';
import { membershipRoles } from '@platform/db';
import type { VerifiedOutputs } from '@platform/verification-lifecycle';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { temporaryVault } from '../../../test/review-fixtures.js';
import {
  auditEventsOf,
  eraseVerifiedOutputs,
  insertPendingSession,
  verifyWithOutputs,
} from '../../../test/verification-session-fixtures.js';
import { allows } from '../organizations/index.js';

// GET /v1/verification-sessions/:id?expand=verified_outputs: what a verification verified, for the members whose role
// holds verifications:read_personal_data, every read in the audit log (docs/decisions.md#verified-data).

const person = {
  type: 'kyc',
  person: {
    firstName: 'Zawadi',
    middleName: null,
    lastName: 'Mwendwa-Fake',
    dateOfBirth: '1991-02-03',
    idType: 'national_id',
    idNumber: '31415926',
    documentExpiry: '2031-02-03',
    nationality: 'KEN',
    faceComparedWith: 'registry_photo',
  },
} satisfies VerifiedOutputs;

const business = {
  type: 'kyb',
  business: {
    registeredName: 'Fake Traders Limited',
    registrationNumber: 'PVT-00000001',
    status: 'registered',
    registrationDate: '2015-06-30',
    directors: [{ name: 'Amani Fake', role: 'director', sessionId: null, status: null }],
    beneficialOwners: [{ name: 'Baraka Fake', role: null, sessionId: null, status: null, shareholdingPercent: 60 }],
  },
} satisfies VerifiedOutputs;

const userOf = (role: string) => `user_verified_${role}`;
const EXPAND = '?expand=verified_outputs';

let t: TestApp;
let removeVault: () => Promise<void>;
let organizationId: string;
let kycId: string;
let kybId: string;

beforeAll(async () => {
  const { vault, remove } = await temporaryVault();
  removeVault = remove;
  t = await createTestApp({ deps: { vault } });
  for (const role of membershipRoles) await insertUser(t.db, { id: userOf(role) });
  organizationId = await insertOrganization(t.db, {
    members: membershipRoles.map((role) => ({ userId: userOf(role), role })),
  });
  kycId = await insertPendingSession(t.db, { organizationId, environment: 'live' });
  await verifyWithOutputs(t.db, vault, { id: kycId, type: 'kyc' }, person);
  kybId = await insertPendingSession(t.db, { organizationId, type: 'kyb' });
  await verifyWithOutputs(t.db, vault, { id: kybId, type: 'kyb' }, business);
});
afterAll(async () => {
  await t?.close();
  await removeVault?.();
});

async function read(id: string, query = EXPAND, userId = userOf('owner'), organization = organizationId) {
  return t.app.inject({
    method: 'GET',
    url: `/v1/verification-sessions/${id}${query}`,
    headers: { ...(await authHeader(userId)), 'x-organization-id': organization },
  });
}

const viewsOf = async (sessionId: string) =>
  (await auditEventsOf(t.db, organizationId, 'verification.verified_data_viewed')).filter(
    (row) => row.targetId === sessionId,
  );

describe('GET /v1/verification-sessions/:id?expand=verified_outputs', () => {
  it('answers the session without verified data when not asked, and records nothing', async () => {
    const response = await read(kycId, '');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).not.toHaveProperty('verifiedOutputs');
    expect(response.body).not.toContain(person.person.idNumber);
    expect(await viewsOf(kycId)).toEqual([]);
  });

  it("answers an owner and an admin what was verified, each read recorded with the member's user id", async () => {
    for (const role of ['owner', 'admin'] as const) {
      const response = await read(kycId, EXPAND, userOf(role));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ session: { sessionId: kycId, status: 'verified' } });
      expect(response.json().data.verifiedOutputs).toEqual(person);
    }
    const views = await viewsOf(kycId);
    expect(views).toHaveLength(2);
    expect(views.map((row) => row.details)).toEqual(
      expect.arrayContaining([{ userId: userOf('owner') }, { userId: userOf('admin') }]),
    );
    expect(views.find((row) => row.actorUserId === userOf('owner'))).toMatchObject({
      actorUserId: userOf('owner'),
      targetType: 'verification_session',
      targetId: kycId,
      requestId: expect.any(String),
    });
  });

  it("answers a business's registered name, number, status, directors and owners", async () => {
    const response = await read(kybId);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.verifiedOutputs).toEqual(business);
  });

  it('refuses every other role with 403 naming the permission, before anything is read or recorded', async () => {
    const refused = membershipRoles.filter((role) => !allows(role, 'verifications:read_personal_data'));
    expect(refused).toEqual(expect.arrayContaining(['developer', 'billing', 'member']));
    const before = (await viewsOf(kycId)).length;
    for (const role of refused) {
      // An unknown session too: the role is decided first, so the answer says nothing of the session.
      for (const id of [kycId, randomUUID()]) {
        const response = await read(id, EXPAND, userOf(role));
        expect(response.statusCode, `${role}: ${response.body}`).toBe(403);
        expect(response.json()).toMatchObject({ success: false, code: 'forbidden' });
        // A role that may read sessions is told the permission; one that may not is refused the route itself.
        expect(response.json().error).toContain(
          allows(role, 'verifications:read') ? 'verifications:read_personal_data' : 'This needs the role',
        );
        expect(response.body).not.toContain(person.person.idNumber);
      }
    }
    expect(await viewsOf(kycId)).toHaveLength(before);
  });

  it('refuses any other expansion with a 400 naming expand', async () => {
    for (const query of ['?expand=checks', '?expand=everything', '?expand=']) {
      const response = await read(kycId, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.body).toContain('expand');
    }
  });

  it('answers null before a verified decision, and records the read', async () => {
    const pending = await insertPendingSession(t.db, { organizationId });
    const response = await read(pending);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.verifiedOutputs).toBeNull();
    expect(await viewsOf(pending)).toHaveLength(1);
  });

  it('answers null once the personal data is erased', async () => {
    const { vault, remove } = await temporaryVault();
    try {
      const erased = await insertPendingSession(t.db, { organizationId });
      await verifyWithOutputs(t.db, vault, { id: erased, type: 'kyc' }, person);
      await eraseVerifiedOutputs(t.db, erased);
      const response = await read(erased);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.verifiedOutputs).toBeNull();
      expect(response.json().data.session.personalDataErasedAt).not.toBeNull();
    } finally {
      await remove();
    }
  });

  it("is 404 for another organization's session, to an owner of this one, and records nothing", async () => {
    const elsewhere = await insertOrganization(t.db, { members: [{ userId: userOf('owner'), role: 'member' }] });
    const foreign = await insertPendingSession(t.db, { organizationId: elsewhere });
    const response = await read(foreign);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found' });
    expect(await auditEventsOf(t.db, elsewhere, 'verification.verified_data_viewed')).toEqual([]);
    expect(await viewsOf(foreign)).toEqual([]);
  });

  it('answers nothing when the audit record cannot be written', async () => {
    await t.db.execute(
      sql`alter table audit_events add constraint no_reads_test check (action <> 'verification.verified_data_viewed') not valid`,
    );
    try {
      const response = await read(kycId);
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain(person.person.idNumber);
      expect(response.body).not.toContain(person.person.lastName);
    } finally {
      await t.db.execute(sql`alter table audit_events drop constraint no_reads_test`);
    }
  });
});
