import { type Static, Type } from '@sinclair/typebox';

// The ledger's one setting, read alike by both services: what a new test wallet starts with
// (docs/decisions.md#test-credit).

/** The largest starting credit: KES 1,000,000,000, far above any test. */
export const MAX_TEST_WALLET_CREDIT = 1_000_000_000;

export const LedgerEnvSchema = Type.Object({
  /**
   * Whole KES a new organization's test wallet starts with, recorded as a top-up (`test_credit:<organization id>`);
   * 0: none. Live wallets never start with anything.
   */
  TEST_WALLET_CREDIT: Type.Integer({ minimum: 0, maximum: MAX_TEST_WALLET_CREDIT, default: 10_000 }),
});

export type LedgerEnv = Static<typeof LedgerEnvSchema>;
