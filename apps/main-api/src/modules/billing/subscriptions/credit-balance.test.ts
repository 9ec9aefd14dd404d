import type { DatabaseHandle } from '@platform/db';
import { creditBalanceEntries } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertOrganization } from '../../../../test/helpers.js';
import { creditBalanceOf, insertSubscription } from '../../../../test/subscription-fixtures.js';
import { addCredit, useCredit } from './credit-balance.js';
import { lockSubscription } from './repository.js';

describe('the credit balance', () => {
  let database: DatabaseHandle;
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    organizationId = await insertOrganization(database.db);
    await insertSubscription(database.db, organizationId, {
      plan: 'core',
      seats: 3,
      cycle: 'monthly',
      anchor: '2024-01-01',
    });
  });

  async function move(kind: 'add' | 'use', amount: number, reference: string) {
    return database.db.transaction(async (tx) => {
      const subscription = await lockSubscription(tx, organizationId);
      if (subscription === undefined) throw new Error('No subscription');
      const movement = {
        amount,
        reason: kind === 'add' ? 'downgrade' : 'upgrade',
        reference,
        description: 'test',
      } as const;
      return kind === 'add' ? addCredit(tx, subscription, movement) : useCredit(tx, subscription, movement);
    });
  }

  it('records every movement once per reason and reference, the balance being their sum', async () => {
    expect(await move('add', 500, 'change:a')).toBe(true);
    expect(await move('add', 500, 'change:a')).toBe(false);
    expect(await move('add', 120, 'change:b')).toBe(true);
    expect(await move('use', 300, 'change:c')).toBe(true);
    expect(await move('use', 300, 'change:c')).toBe(false);
    expect(await creditBalanceOf(database.db, organizationId)).toBe(320);
    const entries = await database.db
      .select({ amount: creditBalanceEntries.amount, reason: creditBalanceEntries.reason })
      .from(creditBalanceEntries)
      .where(eq(creditBalanceEntries.organizationId, organizationId));
    expect(entries.map((entry) => entry.amount).sort((a, b) => a - b)).toEqual([-300, 120, 500]);
  });

  it('never goes below zero: using more than there is fails and records nothing', async () => {
    await move('add', 100, 'change:d');
    await expect(move('use', 101, 'change:e')).rejects.toThrow();
    expect(await creditBalanceOf(database.db, organizationId)).toBe(100);
  });

  it('takes whole KES above zero only', async () => {
    for (const amount of [0, -5, 2.5])
      await expect(move('add', amount, `change:${amount}`)).rejects.toThrow(RangeError);
    expect(await creditBalanceOf(database.db, organizationId)).toBe(0);
  });
});
