import type { BillingCycle, MailPlan, MembershipRole } from '@platform/db';
import { idempotencyRecords, memberships } from '@platform/db/schema';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type BillingTestApp, startBillingApp } from './billing-fixtures.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from './fake-paystack.js';
import { insertUser } from './helpers.js';
import { clearBilling } from './subscription-fixtures.js';

// The app the subscription suites run against, and the requests of a change of plan they send.

export interface SubscriptionAppOptions {
  /**
   * Charge saved cards through a fake Paystack (the sandbox, which approves every card, otherwise): the authorizations
   * it approves, those it leaves pending, and whether a charge it leaves unanswered times out at once rather than
   * after PROVIDER_TIMEOUT_MS.
   */
  paystack?: { approved?: string[]; pending?: string[]; hangsTimeOut?: boolean };
  /** Members of the payer's organization besides the payer, with their roles. */
  members?: ReadonlyArray<readonly [userId: string, role: MembershipRole]>;
  /** Before each test, forget the idempotency keys earlier tests sent too (billing is emptied anyway). */
  clearIdempotencyRecords?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** A started subscription suite: read its parts inside tests or hooks. */
export interface SubscriptionApp {
  readonly t: BillingTestApp;
  /** Only with the `paystack` option. */
  readonly paystack: FakePaystack;
}

/**
 * Registers the suite's hooks: before it, the fake Paystack asked for and an app charging cards through it, with the
 * members asked for; before each test, everything billing wrote emptied (clearBilling), so each starts from the
 * organizations alone; after it, the app and the fake closed. A file's own beforeEach runs after this one.
 */
export function useSubscriptionApp(options: SubscriptionAppOptions = {}): SubscriptionApp {
  let t: BillingTestApp | undefined;
  let paystack: FakePaystack | undefined;
  const started = <Part>(part: Part | undefined, name: string): Part => {
    if (part === undefined) throw new Error(`The ${name} is started before the suite runs, unless left out`);
    return part;
  };

  beforeAll(async () => {
    if (options.paystack !== undefined) {
      paystack = await startFakePaystack();
      for (const code of options.paystack.approved ?? []) paystack.approvedAuthorizations.add(code);
      for (const code of options.paystack.pending ?? []) paystack.pendingAuthorizations.add(code);
    }
    t = await startBillingApp({
      env: {
        ...(paystack === undefined
          ? {}
          : { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: paystack.url }),
        ...options.env,
      },
    });
    if (paystack !== undefined && options.paystack?.hangsTimeOut === true) t.timeouts.expireOnHang(paystack.server);
    for (const [userId, role] of options.members ?? []) {
      await insertUser(t.db, { id: userId });
      await t.db.insert(memberships).values({ organizationId: t.organizationId, userId, role });
    }
  });
  beforeEach(async () => {
    const app = started(t, 'billing app');
    await clearBilling(app.db);
    if (options.clearIdempotencyRecords === true) await app.db.delete(idempotencyRecords);
  });
  afterAll(async () => {
    await t?.close();
    await paystack?.close();
  });

  return {
    get t() {
      return started(t, 'billing app');
    },
    get paystack() {
      return started(paystack, 'fake Paystack');
    },
  };
}

export interface Terms {
  plan: MailPlan;
  seats: number;
  cycle: BillingCycle;
}

/** GET /v1/billing/upgrade/preview as the payer, for `next` or for the query as written. */
export async function previewChange(
  t: BillingTestApp,
  next: Terms | Record<string, string>,
): Promise<LightMyRequestResponse> {
  const query =
    'plan' in next && typeof next.seats === 'number'
      ? new URLSearchParams({ newPlan: next.plan, newSeats: String(next.seats), newCycle: next.cycle })
      : new URLSearchParams(next as Record<string, string>);
  return t.app.inject({ method: 'GET', url: `/v1/billing/upgrade/preview?${query}`, headers: await t.headers() });
}

/** POST /v1/billing/upgrade as the payer, with `body` as written. */
export async function requestChange(
  t: BillingTestApp,
  body: object,
  extraHeaders: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/v1/billing/upgrade',
    headers: await t.headers(extraHeaders),
    payload: body,
  });
}

/** The body of POST /v1/billing/upgrade asking for `next`, paid with the saved method `paymentMethodId` if given. */
export function changeBody(next: Terms, paymentMethodId?: string) {
  return {
    newPlan: next.plan,
    newSeats: next.seats,
    newCycle: next.cycle,
    ...(paymentMethodId === undefined ? {} : { paymentMethodId }),
  };
}
