import { type Database, queryRows } from '@platform/db';
import {
  creditBalanceEntries,
  ledgerEntries,
  ledgerTransactions,
  mailSubscriptionChanges,
  mailSubscriptions,
  payments,
  receipts,
  verificationSessions,
  wallets,
} from '@platform/db/schema';
import { ledgerBalances } from '@platform/ledger';
import { sql } from 'drizzle-orm';

// The books of a whole test database, read at rest, as plain facts and a list of what is wrong with them. The
// money-invariant run and the fault tests check the same things this way: every wallet equals its ledger, every
// ledger transaction balances, holds are taken once and resolved at most once as their session's status says,
// every payment is applied at most once (a top-up credits once, a subscription change charge goes to its change
// or to the credit balance, once), every credit balance equals its movements, and every succeeded payment has one
// receipt, numbered without a gap.

const CAPTURED = new Set(['verified', 'rejected']);
const RELEASED = new Set(['canceled', 'expired']);
const OPEN = new Set(['pending', 'processing', 'requires_input']);

export interface Books {
  /** Sessions by status, payments by `purpose/provider/method/status`: to show a run did what it meant to. */
  sessionsByStatus: Map<string, number>;
  paymentsByKind: Map<string, number>;
  /** What does not add up, one sentence each; empty when the books are right. */
  problems: string[];
}

export async function readBooks(db: Database): Promise<Books> {
  const problems: string[] = [];

  // Wallets: stored balances are what the ledger sums to, never below zero.
  const allWallets = await db.select().from(wallets);
  for (const wallet of allWallets) {
    const ledger = await ledgerBalances(db, wallet.id);
    if (ledger.available !== wallet.availableBalance || ledger.held !== wallet.heldBalance) {
      problems.push(
        `wallet ${wallet.id} stores ${wallet.availableBalance}/${wallet.heldBalance} available/held, its ledger says ${ledger.available}/${ledger.held}`,
      );
    }
    if (wallet.availableBalance < 0 || wallet.heldBalance < 0) problems.push(`wallet ${wallet.id} is below zero`);
  }
  // Double entry: every transaction's entries cancel out.
  const unbalanced = await queryRows<{ id: string }>(
    db,
    sql`select ${ledgerEntries.transactionId} as id from ${ledgerEntries} group by 1 having sum(${ledgerEntries.amount}) <> 0`,
  );
  for (const { id } of unbalanced) problems.push(`ledger transaction ${id} does not balance`);

  const movements = await queryRows<{ reference: string; kind: string; times: number }>(
    db,
    sql`select ${ledgerTransactions.reference} as reference, ${ledgerTransactions.kind} as kind, count(*)::int as times
        from ${ledgerTransactions} group by 1, 2`,
  );
  const times = new Map(movements.map((movement) => [`${movement.kind} ${movement.reference}`, movement.times]));
  const timesOf = (kind: string, reference: string) => times.get(`${kind} ${reference}`) ?? 0;

  // Holds: one per priced session, resolved at most once and as its status says; a wallet holds its open sessions.
  const sessions = await db.select().from(verificationSessions);
  const sessionsByStatus = new Map<string, number>();
  for (const session of sessions) {
    sessionsByStatus.set(session.status, (sessionsByStatus.get(session.status) ?? 0) + 1);
    if (session.price === 0) continue;
    const reference = `verification_session:${session.id}`;
    const expected = {
      hold: 1,
      capture: CAPTURED.has(session.status) ? 1 : 0,
      release: RELEASED.has(session.status) ? 1 : 0,
    };
    for (const [kind, count] of Object.entries(expected)) {
      if (timesOf(kind, reference) !== count) {
        problems.push(
          `session ${session.id} (${session.status}) has ${timesOf(kind, reference)} ${kind} movements, not ${count}`,
        );
      }
    }
  }
  for (const wallet of allWallets) {
    const holding = sessions.filter((session) => session.walletId === wallet.id && OPEN.has(session.status));
    const expected = holding.reduce((sum, session) => sum + session.price, 0);
    if (wallet.heldBalance !== expected)
      problems.push(`wallet ${wallet.id} holds ${wallet.heldBalance}, its open sessions ${expected}`);
  }

  // Payments: a succeeded top-up credited its wallet once, with its amount; nothing else credited a top-up.
  const allPayments = await db.select().from(payments);
  const paymentsByKind = new Map<string, number>();
  for (const payment of allPayments) {
    const kind = `${payment.purpose}/${payment.provider}/${payment.method}/${payment.status}`;
    paymentsByKind.set(kind, (paymentsByKind.get(kind) ?? 0) + 1);
  }
  const topUps = allPayments.filter((payment) => payment.purpose === 'wallet_topup');
  for (const payment of topUps) {
    const credited = timesOf('top_up', `payment:${payment.reference}`);
    const expected = payment.status === 'succeeded' ? 1 : 0;
    if (credited !== expected)
      problems.push(`top-up ${payment.reference} (${payment.status}) credited ${credited} times, not ${expected}`);
  }
  const [credited] = await queryRows<{ total: number }>(
    db,
    sql`select coalesce(sum(${ledgerTransactions.amount}), 0)::int as total from ${ledgerTransactions}
        where ${ledgerTransactions.kind} = 'top_up' and ${ledgerTransactions.reference} like 'payment:%'`,
  );
  const paid = topUps
    .filter((payment) => payment.status === 'succeeded')
    .reduce((sum, payment) => sum + payment.amount, 0);
  if (credited?.total !== paid)
    problems.push(`top-ups credited ${credited?.total} in all, succeeded top-ups paid ${paid}`);

  // Subscription change charges: a succeeded one went once to its change or, if that could no longer apply, to
  // the credit balance; any other went nowhere.
  const changes = await db.select().from(mailSubscriptionChanges);
  const entries = await db.select().from(creditBalanceEntries);
  for (const payment of allPayments.filter((candidate) => candidate.purpose === 'mail_subscription_change')) {
    const applied = changes.filter((change) => change.paymentId === payment.id && change.status === 'applied').length;
    const toCredit = entries.filter(
      (entry) => entry.reason === 'unapplied_charge' && entry.reference === `payment:${payment.reference}`,
    ).length;
    const expected = payment.status === 'succeeded' ? 1 : 0;
    if (applied + toCredit !== expected) {
      problems.push(
        `change charge ${payment.reference} (${payment.status}) applied ${applied} times and credited ${toCredit} times, not ${expected} in all`,
      );
    }
  }

  // Receipts: one for each succeeded payment and none for any other; their numbers run from 1 with no gap (so none was
  // given twice either).
  const issued = await db.select({ paymentId: receipts.paymentId, sequence: receipts.sequence }).from(receipts);
  for (const payment of allPayments) {
    const count = issued.filter((receipt) => receipt.paymentId === payment.id).length;
    const expected = payment.status === 'succeeded' ? 1 : 0;
    if (count !== expected) problems.push(`payment ${payment.reference} (${payment.status}) has ${count} receipts`);
  }
  const numbers = issued.map((receipt) => receipt.sequence).sort((a, b) => a - b);
  if (numbers.some((number, index) => number !== index + 1)) {
    problems.push(`receipt numbers are not 1 to ${numbers.length}: ${numbers.join(', ')}`);
  }

  // Credit balances: the cached balance is the sum of its movements, and no movement happened twice.
  for (const subscription of await db.select().from(mailSubscriptions)) {
    const total = entries
      .filter((entry) => entry.organizationId === subscription.organizationId)
      .reduce((sum, entry) => sum + entry.amount, 0);
    if (subscription.creditBalance !== total) {
      problems.push(
        `subscription ${subscription.id} caches a credit of ${subscription.creditBalance}, its movements sum to ${total}`,
      );
    }
    if (subscription.creditBalance < 0) problems.push(`subscription ${subscription.id} has a negative credit balance`);
  }
  const seen = new Set<string>();
  for (const entry of entries) {
    const key = `${entry.reason} ${entry.reference}`;
    if (seen.has(key)) problems.push(`credit movement ${key} happened twice`);
    seen.add(key);
  }

  return { sessionsByStatus, paymentsByKind, problems };
}
