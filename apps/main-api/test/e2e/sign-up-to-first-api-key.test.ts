import { randomUUID } from 'node:crypto';
import { findActiveApiKey } from '@platform/api-keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, tokenFor } from '../helpers.js';

// A business signs up through the API alone, over real HTTP: a person with nothing but a token from the identity
// provider creates a profile and an organization, invites a colleague as a developer, the colleague signs up and
// accepts, and creates the organization's first API key, which the backend service would accept. Nothing is seeded.

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t?.close();
});

async function call(
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: { success: boolean; data?: unknown; error?: string } & Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as never };
}

describe('from a token to the first API key, through the API only', () => {
  it('signs up a founder, creates the organization, brings in a developer who creates a key', async () => {
    const founder = await tokenFor(`user_founder_${randomUUID()}`, { email: 'Wanjiru@Kamau-Traders.example' });
    const developerId = `user_developer_${randomUUID()}`;
    const developer = await tokenFor(developerId, { email: 'otieno@kamau-traders.example' });

    // The founder has no profile yet, as the contract says, until they create one.
    expect((await call(founder, 'GET', '/v1/accounts/me')).status).toBe(404);
    const profile = await call(founder, 'POST', '/v1/accounts', { firstName: 'Wanjiru', lastName: 'Kamau' });
    expect(profile.status, JSON.stringify(profile.json)).toBe(201);
    expect(profile.json.data).toMatchObject({ email: 'Wanjiru@Kamau-Traders.example' });

    const created = await call(
      founder,
      'POST',
      '/v1/organizations',
      { name: 'Kamau Traders', kraPin: 'p051234567x' },
      { 'idempotency-key': randomUUID() },
    );
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const organization = created.json.data as { id: string; name: string; kraPin: string; role: string };
    expect(organization).toMatchObject({ name: 'Kamau Traders', kraPin: 'P051234567X', role: 'owner' });

    const invited = await call(founder, 'POST', `/v1/organizations/${organization.id}/invitations`, {
      email: 'Otieno@Kamau-Traders.example',
      role: 'developer',
    });
    expect(invited.status, JSON.stringify(invited.json)).toBe(201);
    const invitation = invited.json.data as { id: string; status: string; acceptUrl: string };
    expect(invitation.status).toBe('pending');
    expect(invitation.acceptUrl).toContain(`/v1/invitations/${invitation.id}/accept`);

    // The colleague signs up, then accepts with the token whose email the invitation names (in another case).
    expect((await call(developer, 'POST', '/v1/accounts', { firstName: 'Otieno', lastName: 'Ouma' })).status).toBe(201);
    const accepted = await call(developer, 'POST', `/v1/invitations/${invitation.id}/accept`);
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    expect(accepted.json.data).toMatchObject({ organizationId: organization.id, role: 'developer' });

    const members = await call(founder, 'GET', `/v1/organizations/${organization.id}/members`);
    expect(members.status).toBe(200);
    expect((members.json.data as { userId: string; role: string }[]).map((member) => member.role).sort()).toEqual([
      'developer',
      'owner',
    ]);

    const organizationHeader = { 'x-organization-id': organization.id };
    const key = await call(
      developer,
      'POST',
      '/v1/api-keys',
      { environment: 'test', name: 'Shop backend' },
      organizationHeader,
    );
    expect(key.status, JSON.stringify(key.json)).toBe(201);
    const secret = (key.json.data as { secret: string }).secret;
    expect(await findActiveApiKey(t.db, secret)).toMatchObject({
      organizationId: organization.id,
      environment: 'test',
    });

    // The developer may not pay; the audit log, which the owner reads, names who did what.
    const pay = await call(
      developer,
      'POST',
      '/v1/billing/pay',
      { method: 'card', amount: 500 },
      {
        ...organizationHeader,
        'idempotency-key': randomUUID(),
      },
    );
    expect(pay.status).toBe(403);
    const audit = await call(founder, 'GET', `/v1/organizations/${organization.id}/audit-events`);
    expect(audit.status).toBe(200);
    const events = (audit.json.data as { auditEvents: { action: string; actorUserId: string }[] }).auditEvents;
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining(['organization.created', 'invitation.created', 'invitation.accepted', 'api_key.created']),
    );
    expect(events.find((event) => event.action === 'api_key.created')?.actorUserId).toBe(developerId);
    expect(JSON.stringify(audit.json)).not.toContain(secret);
  });
});
