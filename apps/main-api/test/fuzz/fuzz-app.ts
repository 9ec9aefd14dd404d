import type { Database } from '@platform/db';
import { memberships, organizations } from '@platform/db/schema';
import { tableChecksums } from '@platform/db/testing';
import { type FuzzTarget, fuzzRunSettings } from '@platform/http/testing';
import type { InjectOptions } from 'fastify';
import { type FakeDaraja, fakeDarajaEnv, startFakeDaraja } from '../fake-daraja.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from '../fake-paystack.js';
import { createTestApp, insertOrganization, TEST_PROVIDER_TIMEOUT_MS, type TestApp } from '../helpers.js';
import { temporaryVault } from '../review-fixtures.js';
import { isBrowserPage, isForgedCallback } from './route-kinds.js';

// What the fuzz suites (fuzz.test.ts, platform-routes.test.ts) share: one seed and run count, the users and
// organizations they seed, the app they fuzz and how a run meets it.

export const { seed, numRuns } = fuzzRunSettings({ seed: 20_261_124, numRuns: 2_200 });

export const MEMBER_ID = 'user_fuzz_member';
/** The member's profile address, also in the member's token: an invitation to it can be accepted. */
export const MEMBER_EMAIL = `${MEMBER_ID}@example.com`;
export const OUTSIDER_ID = 'user_fuzz_outsider';
// The organization the /v1/organizations/:id routes meet, owned by the member, and the colleagues whose role the
// member changes or whom the member removes. Deleting it, or removing a colleague, succeeds: the team is then put
// back (restoreTeam), so the routes after it still meet something that exists.
export const TEAM_ID = '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6bf022';
export const COLLEAGUE_IDS = ['user_fuzz_colleague_1', 'user_fuzz_colleague_2', 'user_fuzz_colleague_3'];
// One user sends every request: the limit must not be what answers.
export const UNREACHABLE_RATE_LIMIT = '100000000';
// The platform organization, where the member is a reviewer, so the review routes get past their guard; the sessions
// they meet wait for review: one that no request decides (details, claims and document links meet it) and a pool the
// decision route uses up.
export const PLATFORM_ID = '1b6e2f3a-4c5d-4e7f-8a9b-0c1d2e3f4a5b';
export const REVIEW_LINK_SECRET = 'a-review-link-secret-for-the-fuzz-run';
export const DECIDABLE_SESSIONS = 30;
// The platform organization's finance member, who fuzzes the finance routes (the member is its reviewer: one role a
// membership), and the bank transfers it meets: the member's, all of one amount, which a confirmation may apply once.
export const FINANCE_ID = 'user_fuzz_finance';
/** An admin of the platform organization, who ends users' console sessions. */
export const PLATFORM_ADMIN_ID = 'user_fuzz_platform_admin';
export const TRANSFERS_TO_CONFIRM = 30;
export const TRANSFER_AMOUNT = 1_500;

/** The providers' fakes, a document vault and main-api on them, as every fuzz suite runs it. */
export interface FuzzApp {
  t: TestApp;
  vault: Awaited<ReturnType<typeof temporaryVault>>;
  paystack: FakePaystack;
  daraja: FakeDaraja;
  close(): Promise<void>;
}

export async function startFuzzApp(): Promise<FuzzApp> {
  const paystack = await startFakePaystack();
  const daraja = await startFakeDaraja();
  const vault = await temporaryVault();
  const t = await createTestApp({
    deps: { vault: vault.vault },
    env: {
      PLATFORM_ORGANIZATION_ID: PLATFORM_ID,
      REVIEW_LINK_SECRET,
      // Providers configured (against local fakes) so their callback routes exist and payments get answers.
      PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET,
      PAYSTACK_BASE_URL: paystack.url,
      ...fakeDarajaEnv(daraja.url),
      PROVIDER_TIMEOUT_MS: String(TEST_PROVIDER_TIMEOUT_MS),
      PAYMENT_RECONCILE_INTERVAL_MS: '0',
      RENEWAL_INTERVAL_MS: '0',
      RATE_LIMIT_PER_MINUTE: UNREACHABLE_RATE_LIMIT,
    },
  });
  return {
    t,
    vault,
    paystack,
    daraja,
    async close() {
      await t.close();
      await vault.remove();
      await paystack.close();
      await daraja.close();
    },
  };
}

/** The platform organization, with the member as its reviewer. */
export async function seedPlatform(db: Database): Promise<void> {
  await insertOrganization(db, {
    id: PLATFORM_ID,
    name: 'The platform',
    members: [{ userId: MEMBER_ID, role: 'reviewer' }],
  });
}

/** The member's team organization and its colleagues, as far as they are missing (the first time: all of it). */
export async function restoreTeam(db: Database): Promise<void> {
  // A team whose test wallet was looked at holds its test credit, so DELETE retired it rather than deleting it
  // (docs/decisions.md#test-credit): the harness takes the retirement back.
  await db
    .insert(organizations)
    .values({ id: TEAM_ID, name: 'Fuzz team', activatedAt: new Date() })
    .onConflictDoUpdate({ target: organizations.id, set: { retiredAt: null } });
  await db
    .insert(memberships)
    .values([
      { organizationId: TEAM_ID, userId: MEMBER_ID, role: 'owner' },
      ...COLLEAGUE_IDS.map((userId) => ({ organizationId: TEAM_ID, userId, role: 'developer' as const })),
    ])
    .onConflictDoNothing();
}

/** After a deletion under /v1/organizations/ succeeded (the team, or a colleague), puts the team back. */
export function restoreTeamAfterRemovals(db: Database) {
  return async (options: InjectOptions, statusCode: number): Promise<void> => {
    const removed = options.method === 'DELETE' && String(options.url).startsWith('/v1/organizations/');
    if (removed && statusCode >= 200 && statusCode < 300) await restoreTeam(db);
  };
}

/**
 * The app under test, its tables as the stored state, HTML pages for the payer's browser, forged callbacks.
 * `afterAnswer` runs after each request, before the next one's state is taken.
 */
export function fuzzTarget(
  target: TestApp,
  afterAnswer?: (options: InjectOptions, statusCode: number) => Promise<void>,
): FuzzTarget {
  return {
    inject: async (options) => {
      const response = await target.app.inject(options);
      await afterAnswer?.(options, response.statusCode);
      return response;
    },
    snapshot: () => tableChecksums(target.db),
    isBrowserPage,
    mustChangeNothing: isForgedCallback,
  };
}
