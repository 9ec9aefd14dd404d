import { notifications } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import {
  allConfirmations,
  auditEventsOf,
  confirmTransfer,
  payByTransfer,
  startTransferApp,
  type TransferTestApp,
} from '../../../../test/bank-transfer-fixtures.js';
import {
  deletePayments,
  PAYER_ID,
  paymentByReference,
  topUpsOf,
  transitionsOf,
} from '../../../../test/billing-fixtures.js';
import { allReceipts } from '../../../../test/receipt-fixtures.js';

// Confirmations of one bank transfer arriving together (a double click, two finance members at once, a retry without
// a key, the parts of a split transfer), and the expiry job running on several instances, apply each transfer once
// and record each bank reference once (docs/decisions.md#bank-transfer-confirmation,
// docs/decisions.md#split-bank-transfers). Races need real concurrent connections: PGlite runs one query at a
// time, so these run on PostgreSQL only.
describe.skipIf(missing(postgresServer))(
  'bank transfers confirmed at once (PostgreSQL only: PGlite has no concurrent transactions)',
  () => {
    let t: TransferTestApp;

    beforeAll(async () => {
      t = await startTransferApp({ maxConnections: 12 });
    });
    afterAll(async () => {
      await t?.close();
    });
    beforeEach(async () => {
      await deletePayments(t.db);
      await t.db.delete(notifications);
      t.clock.set(new Date());
    });

    async function transfer(amount: number): Promise<{ reference: string; transferReference: string }> {
      const response = await payByTransfer(t, { amount });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ reference: string; instructions: { reference: string } }>();
      return { reference: body.reference, transferReference: body.instructions.reference };
    }

    it('applies a transfer confirmed ten times at the same moment exactly once', async () => {
      const { reference, transferReference } = await transfer(25_000);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          confirmTransfer(t, index % 2 === 0 ? reference : transferReference, {
            amountReceived: 25_000,
            bankReference: 'FT-DOUBLE-CLICK',
          }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
      const payment = await paymentByReference(t.db, reference);
      expect(payment.status).toBe('succeeded');
      expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->succeeded']);
      expect(await topUpsOf(t.db, reference)).toBe(1);
      expect(await allReceipts(t.db)).toEqual([expect.objectContaining({ paymentId: payment.id })]);
      expect((await allConfirmations(t.db)).map((confirmation) => confirmation.outcome)).toEqual(['applied']);
      expect(await auditEventsOf(t.db, t.organizationId, 'payment.succeeded')).toHaveLength(1);
      expect(await auditEventsOf(t.db, t.platformOrganizationId, 'bank_transfer.confirmed')).toHaveLength(1);
      const told = await t.db.select().from(notifications).where(eq(notifications.userId, PAYER_ID));
      expect(told.filter((note) => note.title === 'Receipt issued')).toHaveLength(1);
    });

    it('adds up parts of one invoice recorded at the same moment: the part that reaches it applies, once', async () => {
      const { reference } = await transfer(8_000);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          confirmTransfer(t, reference, { amountReceived: 2_000, bankReference: `FT-PART-${index}` }),
        ),
      );
      const outcomes = answers.map((answer) =>
        answer.statusCode === 200 ? answer.json().data.outcome : answer.statusCode,
      );
      expect(outcomes.sort()).toEqual([409, 409, 409, 409, 'applied', 'partial', 'partial', 'partial']);
      const recorded = await allConfirmations(t.db);
      expect(recorded.map((confirmation) => confirmation.receivedBefore).sort((a, b) => a - b)).toEqual([
        0, 2_000, 4_000, 6_000,
      ]);
      expect(recorded.find((confirmation) => confirmation.outcome === 'applied')?.receivedBefore).toBe(6_000);
      expect(await topUpsOf(t.db, reference)).toBe(1);
      expect(await allReceipts(t.db)).toHaveLength(1);
      expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
    });

    it('records one bank reference once when two transfers get it at the same moment, whatever the outcome', async () => {
      const first = await transfer(9_000);
      const second = await transfer(9_000);
      const answers = await Promise.all(
        [first, second].map((each) =>
          confirmTransfer(t, each.reference, { amountReceived: 1_000, bankReference: 'FT-ONE-LINE' }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.statusCode === 409)?.json()).toMatchObject({ code: 'conflict' });
      expect(await allConfirmations(t.db)).toEqual([expect.objectContaining({ outcome: 'partial' })]);
    });

    it('lets one bank reference confirm one of two transfers confirmed with it at once', async () => {
      const first = await transfer(6_000);
      const second = await transfer(6_000);
      const answers = await Promise.all(
        [first, second].map((each) =>
          confirmTransfer(t, each.reference, { amountReceived: 6_000, bankReference: 'FT-ONE-TRANSFER' }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const statuses = [
        (await paymentByReference(t.db, first.reference)).status,
        (await paymentByReference(t.db, second.reference)).status,
      ];
      expect(statuses.sort()).toEqual(['pending', 'succeeded']);
      expect(await allConfirmations(t.db)).toHaveLength(1);
      expect(await allReceipts(t.db)).toHaveLength(1);
    });

    it('expires each transfer once when several instances run the expiry job at once', async () => {
      const references = [];
      for (let index = 0; index < 6; index += 1) references.push((await transfer(1_000 + index)).reference);
      t.clock.advance(31 * 86_400_000);
      const rounds = await Promise.all([t.expireTransfers(), t.expireTransfers(), t.expireTransfers()]);
      expect(rounds.reduce((sum, round) => sum + round.expired, 0)).toBe(6);
      for (const reference of references) {
        const payment = await paymentByReference(t.db, reference);
        expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->expired']);
      }
      const told = await t.db.select().from(notifications).where(eq(notifications.userId, PAYER_ID));
      expect(told.filter((note) => note.title === 'Invoice expired')).toHaveLength(6);
    });
  },
);
