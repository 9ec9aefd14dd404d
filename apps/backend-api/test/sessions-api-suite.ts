import {
  idempotencyRecords,
  ledgerTransactions,
  verificationSessions,
  verificationSessionTransitions,
  wallets,
  webhookEvents,
} from '@platform/db/schema';
import { beforeEach } from 'vitest';
import type { BackendApp } from '../src/app.js';
import { buildTestApp, replaceOrganizations, TEST_START, type TestOrganization, useTestApp } from './app-fixtures.js';
import {
  createSessionRequest,
  fundWallet,
  TEST_VERIFY_URL,
  truncateVerificationData,
} from './verification-fixtures.js';

/**
 * A suite of the verification sessions API (create-session, session-links, session-input, get-and-list-sessions,
 * cancel-session): one app and database; before each test the clock at TEST_START, and Acme (both wallets funded
 * with 1,000) and Globex (no wallet) made anew.
 */
export function sessionsApiSuite() {
  const suite = useTestApp({ env: { VERIFY_URL: `${TEST_VERIFY_URL}/` } });
  const { clock } = suite;
  // The same two objects all along, filled anew before each test, so that a test file can take them at collection.
  const acme = {} as TestOrganization;
  const globex = {} as TestOrganization;

  beforeEach(async () => {
    clock.set(TEST_START);
    await truncateVerificationData(suite.db);
    const [madeAcme, madeGlobex] = await replaceOrganizations(suite.db, 'Acme', 'Globex');
    Object.assign(acme, madeAcme);
    Object.assign(globex, madeGlobex);
    await fundWallet(suite.db, acme.id, 'live', 1_000);
    await fundWallet(suite.db, acme.id, 'test', 1_000);
  });

  const create = (key: string, body: unknown, idempotencyKey?: string) =>
    createSessionRequest(suite.app, key, body, idempotencyKey);
  const get = (key: string, id: string) =>
    suite.app.inject({ method: 'GET', url: `/v1/verify/sessions/${id}`, headers: { 'x-service-api-key': key } });
  const list = (key: string, query = '') =>
    suite.app.inject({ method: 'GET', url: `/v1/verify/sessions${query}`, headers: { 'x-service-api-key': key } });
  const cancel = (key: string, id: string, idempotencyKey?: string) =>
    suite.app.inject({
      method: 'POST',
      url: `/v1/verify/sessions/${id}/cancel`,
      headers: {
        'x-service-api-key': key,
        ...(idempotencyKey === undefined ? {} : { 'x-idempotency-key': idempotencyKey }),
      },
    });

  /** Runs `use` on a second app of the suite's database and clock that allows private callback and page targets. */
  async function withPrivateTargets(use: (app: BackendApp) => Promise<void>) {
    const local = await buildTestApp(suite.handle, { now: clock.now, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    try {
      await use(local);
    } finally {
      await local.close();
    }
  }

  /** How many rows each table a create or cancel writes holds: the same before and after a refused request. */
  async function snapshot() {
    return {
      sessions: await suite.db.$count(verificationSessions),
      transitions: await suite.db.$count(verificationSessionTransitions),
      ledger: await suite.db.$count(ledgerTransactions),
      wallets: await suite.db.$count(wallets),
      events: await suite.db.$count(webhookEvents),
      records: await suite.db.$count(idempotencyRecords),
    };
  }

  return {
    suite,
    clock,
    /** Acme and Globex of the running test (their fields are set before each test). */
    acme,
    globex,
    create,
    get,
    list,
    cancel,
    withPrivateTargets,
    snapshot,
  };
}
