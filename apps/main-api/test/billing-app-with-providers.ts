import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type BillingTestApp, startBillingApp } from './billing-fixtures.js';
import { type FakeDaraja, fakeDarajaEnv, startFakeDaraja } from './fake-daraja.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from './fake-paystack.js';

/** A listening billing app with a fake Daraja and a fake Paystack (each unless left out), as a suite's hooks start them. */
export interface BillingAppWithProviders {
  readonly t: BillingTestApp;
  /** Unless `daraja: false`. */
  readonly daraja: FakeDaraja;
  /** Only with `paystack: true`. */
  readonly paystack: FakePaystack;
}

/**
 * Registers the suite's hooks: before it, the fakes asked for (Daraja unless `daraja: false`, Paystack with
 * `paystack: true`) and an app that listens (so they can call it back) configured to
 * use them, Paystack's webhooks aimed at the app; after it, all of them closed. Read the parts inside tests or hooks.
 */
export function useBillingAppWithProviders(
  options: { daraja?: boolean; paystack?: boolean; maxConnections?: number; logger?: FastifyBaseLogger } = {},
): BillingAppWithProviders {
  let t: BillingTestApp | undefined;
  let daraja: FakeDaraja | undefined;
  let paystack: FakePaystack | undefined;

  beforeAll(async () => {
    if (options.daraja !== false) daraja = await startFakeDaraja();
    if (options.paystack === true) paystack = await startFakePaystack();
    t = await startBillingApp({
      listen: true,
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      env: {
        ...(daraja === undefined ? {} : fakeDarajaEnv(daraja.url)),
        ...(paystack === undefined
          ? {}
          : { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: paystack.url }),
      },
    });
    if (paystack !== undefined) paystack.webhookUrl = `${t.url}/v1/billing/webhooks/paystack`;
  });
  afterAll(async () => {
    await t?.close();
    await paystack?.close();
    await daraja?.close();
  });

  const started = <Part>(part: Part | undefined, name: string): Part => {
    if (part === undefined) throw new Error(`The ${name} is started before the suite runs, unless left out`);
    return part;
  };
  return {
    get t() {
      return started(t, 'billing app');
    },
    get daraja() {
      return started(daraja, 'fake Daraja');
    },
    get paystack() {
      return started(paystack, 'fake Paystack');
    },
  };
}
