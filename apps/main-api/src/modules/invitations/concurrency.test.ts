import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DatabaseHandle } from '@platform/db';
import { memberships, organizationInvitations } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { authHeader, insertOrganization, insertUser, testConfig, tokenFor } from '../../../test/helpers.js';
import { buildApp } from '../../app.js';
import { createLocalFolderStorage } from '../../storage/local-folder.js';
import { PENDING_INVITATION_EXISTS } from './service.js';

// Races need real concurrent connections: PGlite runs one query at a time, so these run on PostgreSQL only
// (CI sets DATABASE_URL). Whatever the interleaving, the outcome must be the same.
describe.skipIf(missing(postgresServer))(
  'concurrent invitations (PostgreSQL only: PGlite has no concurrent transactions)',
  () => {
    const OWNER = 'user_invitation_race_owner';
    const INVITEE = 'user_invitation_race_invitee';
    const ATTEMPTS = 10;
    let database: DatabaseHandle;
    let app: ReturnType<typeof buildApp>;
    let avatarDir: string;

    beforeAll(async () => {
      database = await createTestDatabase({ maxConnections: 12 });
      avatarDir = await mkdtemp(path.join(tmpdir(), 'main-api-invitation-race-'));
      const config = testConfig({ AVATAR_LOCAL_DIR: avatarDir });
      app = buildApp(
        { database, storage: createLocalFolderStorage({ directory: avatarDir, publicUrl: config.publicUrl }) },
        config,
      );
      await app.ready();
      await insertUser(database.db, { id: OWNER });
      await insertUser(database.db, { id: INVITEE, email: 'racer@example.com' });
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
      if (avatarDir !== undefined) await rm(avatarDir, { recursive: true, force: true });
    });

    it('creates one of several invitations of the same address sent at once; the others get 409', async () => {
      const organizationId = await insertOrganization(database.db, { members: [{ userId: OWNER }] });
      const headers = await authHeader(OWNER);
      const answers = await Promise.all(
        Array.from({ length: ATTEMPTS }, (_, index) =>
          app.inject({
            method: 'POST',
            url: `/v1/organizations/${organizationId}/invitations`,
            headers,
            // The same address written in different cases.
            payload: { email: index % 2 === 0 ? 'Racer@Example.com' : 'racer@example.COM', role: 'member' },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([201, ...Array(ATTEMPTS - 1).fill(409)]);
      for (const answer of answers.filter((one) => one.statusCode === 409)) {
        expect(answer.json()).toMatchObject({ code: 'conflict', error: PENDING_INVITATION_EXISTS });
      }
      const rows = await database.db
        .select()
        .from(organizationInvitations)
        .where(eq(organizationInvitations.organizationId, organizationId));
      expect(rows).toHaveLength(1);
    });

    it('makes one membership of several accepts sent at once; the others get 404', async () => {
      const organizationId = await insertOrganization(database.db, { members: [{ userId: OWNER }] });
      const invited = await app.inject({
        method: 'POST',
        url: `/v1/organizations/${organizationId}/invitations`,
        headers: await authHeader(OWNER),
        payload: { email: 'racer@example.com', role: 'developer' },
      });
      expect(invited.statusCode).toBe(201);
      const { id } = invited.json().data;
      const authorization = `Bearer ${await tokenFor(INVITEE, { email: 'racer@example.com' })}`;

      const answers = await Promise.all(
        Array.from({ length: ATTEMPTS }, () =>
          app.inject({ method: 'POST', url: `/v1/invitations/${id}/accept`, headers: { authorization } }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([200, ...Array(ATTEMPTS - 1).fill(404)]);
      const members = await database.db
        .select()
        .from(memberships)
        .where(eq(memberships.organizationId, organizationId));
      expect(members.map((member) => [member.userId, member.role]).sort()).toEqual([
        [INVITEE, 'developer'],
        [OWNER, 'owner'],
      ]);
    });
  },
);
