import { randomUUID } from 'node:crypto';
import { createApiKey } from '@platform/api-keys';
import { buildApp as buildBackendApi, loadBackendApiConfig } from '@platform/backend-api';
import { createDatabase, type Database, type DatabaseHandle } from '@platform/db';
import { memberships, organizations, users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { topUpWallet } from '@platform/ledger';
import { signAccessToken } from '@platform/main-api';
// The providers' stand-ins main-api's own tests use: the real Paystack and Daraja code paths run against them.
import { type FakeDaraja, fakeDarajaEnv, startFakeDaraja } from '../../../apps/main-api/test/fake-daraja.js';
import {
  FAKE_PAYSTACK_SECRET,
  type FakePaystack,
  startFakePaystack,
} from '../../../apps/main-api/test/fake-paystack.js';
import { insertSavedCard } from '../../../apps/main-api/test/subscription-fixtures.js';
import { insertMonthlySubscription, insertSandboxCard } from './fixtures.js';
import { type Fleet, startFleet, TOKEN_AUDIENCE, TOKEN_ISSUER, urlOfDatabase } from './instances.js';
import { ORGANIZATIONS } from './money-operations.js';

// What the money-invariants run (money-invariants.test.ts) runs on: two instances of each service on the sandbox
// providers, two more main-api instances on Paystack and Daraja (local fakes), a backend-api instance whose clock
// runs a day ahead and expires sessions, and the organizations that pay.

const SEED_FUNDS = 2_000;
const DAY = 24 * 60 * 60 * 1000;
const HOSTED_PAGE_SECRET = randomUUID() + randomUUID();
// The expiring instance's clock: sessions expire 24 h after creation, so those older than this expire.
const EXPIRE_AFTER_MS = 3_000;

export interface Organization {
  id: string;
  /** Bearer tokens for the sandbox fleet and for the provider fleet (each signs with its own secret). */
  token: string;
  providerToken: string;
  apiKey: string;
  cardId: string;
  /** A card saved with Paystack whose authorization the fake Paystack approves. */
  paystackCardId: string;
  sessions: string[];
}

export interface MoneyWorld {
  database: DatabaseHandle;
  db: Database;
  fleet: Fleet;
  providerFleet: Fleet;
  paystack: FakePaystack;
  daraja: FakeDaraja;
  expirer: { close(): Promise<void> };
  orgs: Organization[];
  close(): Promise<void>;
}

/** Starts the instances and the fakes on a fresh test database, and seeds ORGANIZATIONS organizations. */
export async function startMoneyWorld(databaseUrl: string, redisUrl: string): Promise<MoneyWorld> {
  const database = await createTestDatabase();
  const db = database.db;
  const url = await urlOfDatabase(database, databaseUrl);
  const fleet = await startFleet({
    databaseUrl: url,
    redisUrl: redisUrl,
    // One sandbox checkout secret, so a checkout page served by one instance is confirmed on either.
    mainEnv: {
      RATE_LIMIT_PER_MINUTE: '1000000',
      RENEWAL_INTERVAL_MS: '0',
      SANDBOX_CHECKOUT_SECRET: HOSTED_PAGE_SECRET,
    },
    // The hosted page spends the test's one client address's budget: raised, as for main-api.
    backendEnv: {
      WEBHOOK_DELIVERY_ENABLED: 'false',
      // Live sessions are moved with the hosted page's sandbox buttons here.
      HOSTED_PAGE_LIVE_SANDBOX: 'true',
      VERIFICATION_DECISIONS: 'live:*=sandbox',
      HOSTED_PAGE_SECRET,
      RATE_LIMIT_PER_MINUTE: '1000000',
    },
    maxConnections: 2,
  });
  const paystack = await startFakePaystack();
  const daraja = await startFakeDaraja();
  // Its two main-api instances take card payments through Paystack and M-Pesa through Daraja; its backends
  // stand by (a fleet is one of each pair), with the smallest pools.
  const providerFleet = await startFleet({
    databaseUrl: url,
    redisUrl: redisUrl,
    mainEnv: {
      RATE_LIMIT_PER_MINUTE: '1000000',
      RENEWAL_INTERVAL_MS: '0',
      PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET,
      PAYSTACK_BASE_URL: paystack.url,
      ...fakeDarajaEnv(daraja.url),
    },
    backendEnv: { WEBHOOK_DELIVERY_ENABLED: 'false' },
    maxConnections: 2,
  });
  const expirer = await startExpiringInstance(url);
  const orgs: Organization[] = [];

  async function organization(index: number): Promise<Organization> {
    const [row] = await db
      .insert(organizations)
      .values({ name: `Ledger ${index} ${randomUUID().slice(0, 6)}`, activatedAt: new Date() })
      .returning();
    const id = row!.id;
    const userId = `user_money_${randomUUID().slice(0, 8)}`;
    await db.insert(users).values({ id: userId, email: `${userId}@example.com` });
    await db.insert(memberships).values({ organizationId: id, userId, role: 'owner' });
    await db.transaction((tx) =>
      topUpWallet(tx, { organizationId: id, environment: 'live' }, { amount: SEED_FUNDS, reference: `seed:${id}` }),
    );
    const { secret } = await createApiKey(db, {
      organizationId: id,
      environment: 'live',
      rateLimitPerMinute: 1_000_000,
    });
    const cardId = await insertSandboxCard(db, id);
    const authorizationCode = `AUTH_money_${randomUUID().slice(0, 8)}`;
    paystack.approvedAuthorizations.add(authorizationCode);
    const paystackCardId = await insertSavedCard(db, id, { provider: 'paystack', authorizationCode });
    // A monthly core subscription in the middle of its period.
    await insertMonthlySubscription(db, id, cardId, 10);
    const sign = (secretOf: Fleet) =>
      signAccessToken({
        secret: secretOf.jwtSecret,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        subject: userId,
      });
    return {
      id,
      token: await sign(fleet),
      providerToken: await sign(providerFleet),
      apiKey: secret,
      cardId,
      paystackCardId,
      sessions: [],
    };
  }

  for (let index = 0; index < ORGANIZATIONS; index += 1) orgs.push(await organization(index));
  return {
    database,
    db,
    fleet,
    providerFleet,
    paystack,
    daraja,
    expirer,
    orgs,
    async close() {
      await expirer.close();
      await providerFleet.close();
      await fleet.close();
      await paystack.close();
      await daraja.close();
      await database.close();
    },
  };
}

/** A backend-api instance whose clock runs a day ahead, running the expiry job every 50 ms. */
async function startExpiringInstance(url: string): Promise<{ close(): Promise<void> }> {
  const database = await createDatabase({ url, maxConnections: 2 });
  const app = buildBackendApi(
    { database, now: () => new Date(Date.now() + DAY - EXPIRE_AFTER_MS) },
    loadBackendApiConfig({
      LOG_LEVEL: 'silent',
      VERIFICATION_EXPIRY_INTERVAL_MS: '50',
      IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
      WEBHOOK_DELIVERY_ENABLED: 'false',
    }),
  );
  await app.ready();
  let closed: Promise<void> | undefined;
  return {
    close() {
      closed ??= app.close().then(() => database.close());
      return closed;
    },
  };
}
