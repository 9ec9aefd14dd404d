import { wallets } from '@platform/db/schema';
import { createStatementLog } from '@platform/db/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { replaceOrganizations, type TestOrganization, useTestApp } from '../../../test/app-fixtures.js';
import { statementsSent } from '../../../test/statement-fixtures.js';
import { fundWallet, truncateVerificationData } from '../../../test/verification-fixtures.js';

// The statements GET /v1/wallet sends to PostgreSQL: customers poll it, so a wallet that exists is one read.
describe.skipIf(missing(postgresServer))('statements per wallet read (PostgreSQL)', () => {
  const log = createStatementLog();
  const suite = useTestApp({ statementLog: log });
  let acme: TestOrganization;

  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme');
  });

  const balances = () =>
    suite.app.inject({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': acme.liveKey } });

  it('GET /v1/wallet: the key, then one read of a wallet that exists', async () => {
    await fundWallet(suite.db, acme.id, 'live', 2_500);
    await balances(); // the key's first use records when it was used: not this read's work
    const statements = await statementsSent(
      log,
      suite.app,
      async () => {
        expect((await balances()).json().data).toMatchObject({ available: 2_500, held: 0 });
      },
      { markPrepared: true },
    );
    expect(statements).toEqual(['select api_keys (prepared)', 'select wallets (prepared)']);
  });

  it('GET /v1/wallet: a wallet never used is created on that first look, then read as any other', async () => {
    expect(await suite.db.$count(wallets)).toBe(0);
    const first = await statementsSent(log, suite.app, async () => {
      expect((await balances()).json().data).toMatchObject({ available: 0, held: 0 });
    });
    // The key's first use also records when it was used (the last statement).
    expect(first).toEqual(['select api_keys', 'select wallets', 'insert wallets', 'select wallets', 'update api_keys']);
    expect(await suite.db.$count(wallets)).toBe(1);
    const next = await statementsSent(log, suite.app, () => balances());
    expect(next).toEqual(['select api_keys', 'select wallets']);
  });
});
