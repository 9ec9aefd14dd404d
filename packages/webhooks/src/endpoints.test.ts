import type { DatabaseHandle } from '@platform/db';
import { disabledWebhookTargets, webhookEndpoints } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertOrganization } from '../test/fixtures.js';
import {
  ensureWebhookEndpoint,
  getWebhookEndpointSettings,
  ROTATION_GRACE_PERIOD_MS,
  revealWebhookSecret,
  rotateWebhookSecret,
  setDefaultWebhookUrl,
  signingSecretsOf,
} from './endpoints.js';

let handle: DatabaseHandle;
let organizationId: string;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  organizationId = await insertOrganization(handle.db);
});

const NOW = new Date('2024-06-15T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('ensureWebhookEndpoint', () => {
  it('creates the endpoint with its own secret per environment once, and returns the same one afterwards', async () => {
    const live = await ensureWebhookEndpoint(handle.db, { organizationId, environment: 'live' });
    const test = await ensureWebhookEndpoint(handle.db, { organizationId, environment: 'test' });
    expect(live.secret).toMatch(SECRET);
    expect(test.secret).toMatch(SECRET);
    expect(test.secret).not.toBe(live.secret);
    expect((await ensureWebhookEndpoint(handle.db, { organizationId, environment: 'live' })).secret).toBe(live.secret);
  });

  it('creates one row when called many times at once', async () => {
    const endpoints = await Promise.all(
      Array.from({ length: 8 }, () => ensureWebhookEndpoint(handle.db, { organizationId, environment: 'test' })),
    );
    expect(new Set(endpoints.map((endpoint) => endpoint.secret)).size).toBe(1);
    const rows = await handle.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organizationId, organizationId));
    expect(rows).toHaveLength(1);
  });
});

describe('revealWebhookSecret', () => {
  it('shows the secret the first time only', async () => {
    const { secret } = await ensureWebhookEndpoint(handle.db, { organizationId, environment: 'live' });
    expect(await revealWebhookSecret(handle.db, { organizationId, environment: 'live', now: NOW })).toEqual({ secret });
    expect(await revealWebhookSecret(handle.db, { organizationId, environment: 'live', now: at(1000) })).toBeNull();
    // The other environment has its own secret, still unrevealed.
    const test = await revealWebhookSecret(handle.db, { organizationId, environment: 'test', now: NOW });
    expect(test?.secret).toMatch(SECRET);
    expect(test?.secret).not.toBe(secret);
  });

  it('gives the secret to one of several simultaneous callers', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        revealWebhookSecret(handle.db, { organizationId, environment: 'test', now: NOW }),
      ),
    );
    expect(answers.filter((answer) => answer !== null)).toHaveLength(1);
  });
});

describe('rotateWebhookSecret', () => {
  it('returns a new secret, keeps the old one signing for 24 hours, then drops it', async () => {
    const before = await ensureWebhookEndpoint(handle.db, { organizationId, environment: 'live' });
    const rotated = await rotateWebhookSecret(handle.db, { organizationId, environment: 'live', now: NOW });
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(before.secret);
    expect(rotated.previousSecretExpiresAt).toEqual(at(ROTATION_GRACE_PERIOD_MS));
    expect(ROTATION_GRACE_PERIOD_MS).toBe(24 * 3_600_000);

    const after = await ensureWebhookEndpoint(handle.db, { organizationId, environment: 'live' });
    expect(after).toMatchObject({ secret: rotated.secret, previousSecret: before.secret, secretRevealedAt: NOW });
    expect(signingSecretsOf(after, at(ROTATION_GRACE_PERIOD_MS - 1))).toEqual([rotated.secret, before.secret]);
    expect(signingSecretsOf(after, at(ROTATION_GRACE_PERIOD_MS))).toEqual([rotated.secret]);

    // The rotated secret counts as revealed: it was shown in the rotation's answer.
    expect(await revealWebhookSecret(handle.db, { organizationId, environment: 'live', now: at(1) })).toBeNull();
  });

  it('keeps only the secret it replaced when rotated twice in a row', async () => {
    const first = await rotateWebhookSecret(handle.db, { organizationId, environment: 'test', now: NOW });
    const second = await rotateWebhookSecret(handle.db, { organizationId, environment: 'test', now: at(60_000) });
    const endpoint = await ensureWebhookEndpoint(handle.db, { organizationId, environment: 'test' });
    expect(signingSecretsOf(endpoint, at(120_000))).toEqual([second.secret, first.secret]);
  });
});

describe('endpoint settings', () => {
  it('shows both environments without secrets, with defaults for one never used', async () => {
    expect(await getWebhookEndpointSettings(handle.db, organizationId, NOW)).toEqual([
      {
        environment: 'live',
        defaultUrl: null,
        secretRevealed: false,
        secretRevealedAt: null,
        previousSecretExpiresAt: null,
        disabledTargets: [],
      },
      {
        environment: 'test',
        defaultUrl: null,
        secretRevealed: false,
        secretRevealedAt: null,
        previousSecretExpiresAt: null,
        disabledTargets: [],
      },
    ]);
    await setDefaultWebhookUrl(handle.db, {
      organizationId,
      environment: 'test',
      defaultUrl: 'https://hooks.example.com/t',
      now: NOW,
    });
    await rotateWebhookSecret(handle.db, { organizationId, environment: 'test', now: NOW });
    const [live, test] = await getWebhookEndpointSettings(handle.db, organizationId, at(1000));
    expect(live).toMatchObject({ defaultUrl: null, secretRevealed: false });
    expect(test).toEqual({
      environment: 'test',
      defaultUrl: 'https://hooks.example.com/t',
      secretRevealed: true,
      secretRevealedAt: NOW,
      previousSecretExpiresAt: at(ROTATION_GRACE_PERIOD_MS),
      disabledTargets: [],
    });
    expect(JSON.stringify([live, test])).not.toContain('whsec_');
    // After the grace period there is no rotation in progress.
    const [, later] = await getWebhookEndpointSettings(handle.db, organizationId, at(ROTATION_GRACE_PERIOD_MS));
    expect(later?.previousSecretExpiresAt).toBeNull();
  });

  it('clears the default URL with null, and setting a disabled URL again re-enables it', async () => {
    const url = 'https://hooks.example.com/gone';
    await handle.db
      .insert(disabledWebhookTargets)
      .values({ organizationId, environment: 'live', url, reason: 'answered 410 Gone', createdAt: NOW });
    const [disabledView] = await getWebhookEndpointSettings(handle.db, organizationId, NOW);
    expect(disabledView?.disabledTargets).toEqual([{ url, reason: 'answered 410 Gone', disabledAt: NOW }]);

    await setDefaultWebhookUrl(handle.db, { organizationId, environment: 'live', defaultUrl: url, now: NOW });
    const remaining = await handle.db
      .select()
      .from(disabledWebhookTargets)
      .where(and(eq(disabledWebhookTargets.organizationId, organizationId), eq(disabledWebhookTargets.url, url)));
    expect(remaining).toEqual([]);

    await setDefaultWebhookUrl(handle.db, { organizationId, environment: 'live', defaultUrl: null, now: NOW });
    const [live] = await getWebhookEndpointSettings(handle.db, organizationId, NOW);
    expect(live?.defaultUrl).toBeNull();
  });
});
