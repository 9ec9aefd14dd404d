import { randomUUID } from 'node:crypto';
import { createApiKey, findActiveApiKey } from '@platform/api-keys';
import {
  ledgerTransactions,
  mailSubscriptions,
  organizationInvitations,
  organizations,
  wallets,
  webhookEndpoints,
} from '@platform/db/schema';
import { topUpWallet } from '@platform/ledger';
import { setDefaultWebhookUrl } from '@platform/webhooks';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  DEVELOPER,
  FIXED_NOW,
  MEMBER,
  OUTSIDER,
  OWNER,
  organizationsSuite,
} from '../../../test/organizations-suite.js';

// Without test credit, so a new organization has no money history and is deleted; with it, its test wallet's
// starting credit is a ledger movement and the organization is retired (the last test below;
// docs/decisions.md#test-credit).
const { t, call, organizationWithTeam, rolesOf, eventsOf } = organizationsSuite({ TEST_WALLET_CREDIT: '0' });

describe('DELETE /v1/organizations/:id', () => {
  it('deletes an organization that never moved money, with everything it owns, and keeps its audit log', async () => {
    const id = await organizationWithTeam();
    const response = await call(OWNER, 'DELETE', `/v1/organizations/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Organization deleted',
      data: { id, deleted: true, retiredAt: null },
    });
    expect(await t.db.select().from(organizations).where(eq(organizations.id, id))).toEqual([]);
    expect(await t.db.select().from(wallets).where(eq(wallets.organizationId, id))).toEqual([]);
    expect(await rolesOf(id)).toEqual({});
    expect((await eventsOf(id)).map((event) => event.action)).toEqual(['organization.created', 'organization.deleted']);
    expect((await call(OWNER, 'GET', `/v1/organizations/${id}`)).statusCode).toBe(404);
  });

  it("cancels a retired organization's running mail subscription, so its card is never charged again", async () => {
    const id = await organizationWithTeam();
    await t.db.transaction((tx) =>
      topUpWallet(tx, { organizationId: id, environment: 'live' }, { amount: 100, reference: `test:${id}` }),
    );
    const [subscription] = await t.db
      .insert(mailSubscriptions)
      .values({
        organizationId: id,
        plan: 'core',
        seats: 5,
        billingCycle: 'monthly',
        status: 'active',
        currentPeriodStart: new Date('2024-06-01T00:00:00Z'),
        currentPeriodEnd: new Date('2024-07-01T00:00:00Z'),
        renewalDueAt: new Date('2024-07-01T00:00:00Z'),
      })
      .returning();

    const response = await call(OWNER, 'DELETE', `/v1/organizations/${id}`);
    expect(response.json().data).toMatchObject({ deleted: false });
    const [after] = await t.db.select().from(mailSubscriptions).where(eq(mailSubscriptions.id, subscription!.id));
    expect(after).toMatchObject({ status: 'canceled', renewalDueAt: null });
    const actions = (await eventsOf(id)).map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(['subscription.canceled', 'organization.retired']));
  });

  it('retires an organization with money history: keys and invitations revoked, callbacks cleared, members removed', async () => {
    const id = await organizationWithTeam();
    await t.db.transaction((tx) =>
      topUpWallet(tx, { organizationId: id, environment: 'live' }, { amount: 500, reference: `test:${id}` }),
    );
    const key = await createApiKey(t.db, { organizationId: id, environment: 'live' });
    await setDefaultWebhookUrl(t.db, {
      organizationId: id,
      environment: 'live',
      defaultUrl: 'https://example.com/hook',
      now: FIXED_NOW,
    });
    await t.db.insert(organizationInvitations).values([
      {
        organizationId: id,
        email: 'new@example.com',
        role: 'developer',
        expiresAt: new Date(FIXED_NOW.getTime() + 86_400_000),
      },
    ]);

    const response = await call(OWNER, 'DELETE', `/v1/organizations/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Organization retired',
      data: { id, deleted: false, retiredAt: FIXED_NOW.toISOString() },
    });

    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id));
    expect(row?.retiredAt?.toISOString()).toBe(FIXED_NOW.toISOString());
    expect(await rolesOf(id)).toEqual({});
    expect(await findActiveApiKey(t.db, key.secret)).toBeNull();
    const invitations = await t.db
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.organizationId, id));
    expect(invitations.map((invitation) => invitation.status)).toEqual(['revoked']);
    const endpoints = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, id));
    expect(endpoints.map((endpoint) => endpoint.defaultUrl)).toEqual([null, null]);
    const [wallet] = await t.db
      .select()
      .from(wallets)
      .where(and(eq(wallets.organizationId, id), eq(wallets.environment, 'live')));
    expect(wallet?.availableBalance).toBe(500);
    expect(
      await t.db
        .select()
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.walletId, wallet?.id ?? '')),
    ).toHaveLength(1);

    const retired = (await eventsOf(id)).find((event) => event.action === 'organization.retired');
    expect(retired?.details).toEqual({
      name: 'Wanjiku Ventures',
      apiKeysRevoked: 1,
      invitationsRevoked: 1,
      membersRemoved: 4,
      subscriptionCanceled: false,
      transfersVoided: 0,
      paymentsWithProviders: 0,
      refundsDue: 0,
    });
    expect(JSON.stringify(retired)).not.toContain(key.secret);

    expect((await call(OWNER, 'GET', `/v1/organizations/${id}`)).statusCode).toBe(404);
    const listed = (await call(OWNER, 'GET', '/v1/organizations')).json().data as { id: string }[];
    expect(listed.map((organization) => organization.id)).not.toContain(id);
  });

  it.each([ADMIN, DEVELOPER, MEMBER])('answers 403 naming the owner role to %s, changing nothing', async (userId) => {
    const id = await organizationWithTeam();
    const response = await call(userId, 'DELETE', `/v1/organizations/${id}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'This needs the role owner' });
    expect(await t.db.select().from(organizations).where(eq(organizations.id, id))).toHaveLength(1);
  });

  it("answers 404 to an outsider, for another organization's id as for an unknown one", async () => {
    const id = await organizationWithTeam();
    const theirs = await call(OUTSIDER, 'DELETE', `/v1/organizations/${id}`);
    const unknown = await call(OUTSIDER, 'DELETE', `/v1/organizations/${randomUUID()}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ error: 'Organization not found' });
    expect(unknown.json()).toMatchObject({ error: 'Organization not found' });
    expect(await t.db.select().from(organizations).where(eq(organizations.id, id))).toHaveLength(1);
  });
});
