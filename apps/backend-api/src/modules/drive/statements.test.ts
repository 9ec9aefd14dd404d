import { createStatementLog } from '@platform/db/testing';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { replaceOrganizations, type TestOrganization, useTestApp } from '../../../test/app-fixtures.js';
import { statementsSent } from '../../../test/statement-fixtures.js';

// The statements a folder create sends to PostgreSQL, BEGIN and COMMIT included
// (docs/decisions.md#statements-per-request).
describe.skipIf(missing(postgresServer))('statements per folder create (PostgreSQL)', () => {
  const log = createStatementLog();
  const suite = useTestApp({ statementLog: log });
  let acme: TestOrganization;

  beforeEach(async () => {
    await suite.db.execute(sql`truncate drive_folders, idempotency_records`);
    [acme] = await replaceOrganizations(suite.db, 'Acme');
  });

  const create = (body: object, idempotencyKey?: string) =>
    suite.app.inject({
      method: 'POST',
      url: '/v1/drive/folders',
      headers: {
        'x-service-api-key': acme.liveKey,
        ...(idempotencyKey === undefined ? {} : { 'x-idempotency-key': idempotencyKey }),
      },
      payload: body,
    });

  it('POST /v1/drive/folders: six statements with an idempotency key, the answer stored by the insert', async () => {
    const parent = (await create({ name: 'Parent' })).json().data.id as string;
    for (const body of [{ name: 'Top' }, { name: 'Invoices', parentId: parent }]) {
      const statements = await statementsSent(log, suite.app, async () => {
        expect((await create(body, `create-${body.name}`)).statusCode).toBe(201);
      });
      expect(statements).toEqual(sixStatements);
    }
  });

  const sixStatements = [
    'select api_keys',
    'insert idempotency_records',
    'BEGIN',
    // The advisory lock of the owner's creates, reading the plan and the parent.
    'advisory lock',
    // The count, after the lock, and the insert within the quota.
    'insert drive_folders, update idempotency_records',
    'COMMIT',
  ];
});
