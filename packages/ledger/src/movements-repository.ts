import {
  type ApiKeyOwner,
  type CommitAnswer,
  type Transaction,
  tableRowOf,
  type UnitOfWork,
  type Wallet,
} from '@platform/db';
import { ledgerEntries, ledgerTransactions, wallets } from '@platform/db/schema/wallets';
import { type SQL, sql } from 'drizzle-orm';

// A hold, a capture and a release as writes of a unit of work (docs/decisions.md#statements-per-request), each the
// unit's lock-taking write: sent first in its commit statement, the last statement before COMMIT, so the wallet is
// locked for that statement and the COMMIT after it. Each moves the wallet's cached balances and writes the ledger
// transaction and its entries from what the move returns. The wallet's UPDATE is the first part and is what locks
// the row: no part locks the wallet before it, since a statement that locks a row and then updates it can deadlock
// with a transaction queued for the same row (PostgreSQL's tuple lock). The UPDATE decides from the row itself: its
// WHERE (enough available; no movement of the reference yet) and its SET are evaluated on the latest committed row
// once any movement ahead of it has committed, so racing holds never overdraw. A movement of the same reference
// committed after the statement's snapshot is not seen by the WHERE: the unique indexes refuse the second one
// (23505) and the whole unit rolls back, so a movement is never written twice (`failed`, mapped by the service).

/** What a movement's statement found and did, read from its unit's commit answer. */
interface MovementOutcome {
  /** The wallet as the statement's snapshot saw it; undefined when there is no such wallet. */
  seen: Wallet | undefined;
  /** The movement written, with the wallet after it; undefined when nothing was written. */
  written: { transactionId: string; wallet: Wallet } | undefined;
}

/** A hold's outcome, and what else its statement saw. */
export interface HoldOutcome extends MovementOutcome {
  /** The hold crossed the wallet's armed low-balance threshold and recorded the alert's time. */
  alerted: boolean;
  /** The hold of the reference that exists already (nothing written then). */
  existingId: string | undefined;
}

/** A capture's or a release's outcome, and what else its statement saw. */
export interface ResolutionOutcome extends MovementOutcome {
  holdFound: boolean;
  /** The captures and releases of the hold the statement saw. */
  resolutions: Array<{ id: string; kind: string }>;
}

/** What a movement's write does once its commit statement has run, or when that statement fails. */
export interface MovementHandlers<Outcome> {
  settle(outcome: Outcome, tx: () => Promise<Transaction>): void | Promise<void>;
  failed(error: unknown): unknown;
}

const walletOf = (ref: ApiKeyOwner) =>
  sql`${wallets.organizationId} = ${ref.organizationId}::uuid and ${wallets.environment} = ${ref.environment}::text`;

/** The answer columns every movement reads: the wallet as the snapshot saw it, the movement, the wallet after it. */
function movementColumns(ref: ApiKeyOwner): Array<readonly [string, SQL]> {
  return [
    ['seen', sql`(select to_jsonb(${wallets}) from ${wallets} where ${walletOf(ref)})`],
    ['transaction_id', sql`(select id from movement)`],
    ['moved', sql`(select to_jsonb(moved) from moved)`],
  ];
}

function movementOutcome(answer: CommitAnswer): MovementOutcome {
  const seen = jsonRow(answer['seen']);
  const after = jsonRow(answer['moved']);
  const transactionId = answer['transaction_id'];
  return {
    seen: seen === undefined ? undefined : tableRowOf(wallets, seen),
    written:
      after === undefined || typeof transactionId !== 'string'
        ? undefined
        : { transactionId, wallet: tableRowOf(wallets, after) },
  };
}

/** A JSON object column as an object (postgres.js parses json; a driver that does not gives text). */
function jsonRow(value: unknown): Record<string, unknown> | undefined {
  if (value === null || value === undefined) return undefined;
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
}

/**
 * The parts that write a hold's ledger transaction (`movement`) and its two entries from the wallet the `moved`
 * part updated: nothing when it updated none.
 */
function holdMovementParts(amount: SQL, hold: { reference: string; description: string | null }) {
  return [
    [
      'movement',
      sql`insert into ${ledgerTransactions}
          (wallet_id, kind, amount, reference, description, available_after, held_after, created_at)
        select id, 'hold', ${amount}, ${hold.reference}::text, ${hold.description}::text,
          available_balance, held_balance, clock_timestamp()
        from moved
        returning id, wallet_id`,
    ],
    [
      'entries',
      sql`insert into ${ledgerEntries} (transaction_id, wallet_id, account, amount)
        select id, wallet_id, 'available', -${amount} from movement
        union all
        select id, wallet_id, 'held', ${amount} from movement
        returning 1`,
    ],
  ] as const;
}

const holdOf = (reference: string) =>
  sql`(select 1 from ${ledgerTransactions} where kind = 'hold' and reference = ${reference}::text)`;

/** Takes the available balance from at or above an armed low-balance threshold to below it (in a SET or WHERE). */
const crossingBy = (amount: SQL) => sql`(low_balance_threshold is not null and low_balance_alerted_at is null
    and available_balance >= low_balance_threshold and available_balance - ${amount} < low_balance_threshold)`;

/**
 * Adds a hold of `amount` on the wallet to the unit: written only when the wallet has `amount` available and no hold
 * of `reference` exists. When the hold takes the available balance from at or above the wallet's low-balance
 * threshold to below it and the alert is armed, the same update records the alert's time (`alerted`): exactly one
 * of any number of racing holds sees the crossing. Its handlers run in the unit's transaction.
 */
export function addHoldWrite(
  work: UnitOfWork,
  ref: ApiKeyOwner,
  hold: { amount: number; reference: string; description: string | null; now: Date },
  handlers: MovementHandlers<HoldOutcome>,
): void {
  const amount = sql`${hold.amount}::bigint`;
  const now = sql`${hold.now.toISOString()}::timestamptz`;
  // In the SET, the columns are the row before the hold; in RETURNING, after it. The alert's time is set only by a
  // crossing, and a crossing leaves the balance below the threshold and the balance plus the hold at or above it.
  const crossedAfter = sql`(low_balance_threshold is not null and low_balance_alerted_at = ${now}
      and available_balance < low_balance_threshold and available_balance + ${amount} >= low_balance_threshold)`;
  work.add({
    locks: true,
    parts: [
      [
        'moved',
        sql`update ${wallets} set
          available_balance = available_balance - ${amount},
          held_balance = held_balance + ${amount},
          updated_at = now(),
          low_balance_alerted_at = case when ${crossingBy(amount)} then ${now} else low_balance_alerted_at end
        where ${walletOf(ref)} and available_balance >= ${amount} and not exists ${holdOf(hold.reference)}
        returning ${wallets}.*, ${crossedAfter} as alerted`,
      ],
      ...holdMovementParts(amount, hold),
    ],
    answer: [
      ...movementColumns(ref),
      ['alerted', sql`coalesce((select alerted from moved), false)`],
      [
        'existing_id',
        sql`(select id from ${ledgerTransactions} where kind = 'hold' and reference = ${hold.reference}::text)`,
      ],
    ],
    settle: (answer) => {
      const existingId = answer['existing_id'];
      return handlers.settle(
        {
          ...movementOutcome(answer),
          alerted: answer['alerted'] === true,
          existingId: typeof existingId === 'string' ? existingId : undefined,
        },
        () => work.transaction(),
      );
    },
    failed: handlers.failed,
  });
}

/**
 * Adds a hold of `amount` to a unit that commits without a transaction (docs/decisions.md#a-create-in-one-statement):
 * it holds, or its unit's statement fails writing nothing and the unit runs in a transaction, where `addHoldWrite`
 * answers. It refuses when the wallet is missing or has too little available, when the hold would cross an armed
 * low-balance threshold (the alert is written in the transaction), and when a hold of `reference` exists.
 */
export function addHoldWriteOrRefuse(
  work: UnitOfWork,
  ref: ApiKeyOwner,
  hold: { amount: number; reference: string; description: string | null },
  failed: (error: unknown) => unknown,
): void {
  const amount = sql`${hold.amount}::bigint`;
  work.add({
    locks: true,
    parts: [
      [
        'moved',
        sql`update ${wallets} set
          available_balance = available_balance - ${amount},
          held_balance = held_balance + ${amount},
          updated_at = now()
        where ${walletOf(ref)} and available_balance >= ${amount} and not ${crossingBy(amount)}
          and not exists ${holdOf(hold.reference)}
        returning id, available_balance, held_balance`,
      ],
      ...holdMovementParts(amount, hold),
    ],
    required: { part: 'movement' },
    failed,
  });
}

/**
 * Adds the capture or release of the hold of `reference` to the unit: written only when the hold exists and no
 * capture or release of it is visible to the statement. The outcome carries the resolutions the statement saw.
 */
export function addResolutionWrite(
  work: UnitOfWork,
  ref: ApiKeyOwner,
  resolution: { kind: 'capture' | 'release'; reference: string; description: string | null },
  handlers: MovementHandlers<ResolutionOutcome>,
): void {
  const release = resolution.kind === 'release';
  const resolutionsOf = sql`${ledgerTransactions}
    where kind in ('capture', 'release') and reference = ${resolution.reference}::text`;
  // A capture moves the held money to the platform's revenue; a release back to the available balance.
  work.add({
    locks: true,
    parts: [
      [
        'hold',
        sql`select amount from ${ledgerTransactions} where kind = 'hold' and reference = ${resolution.reference}::text`,
      ],
      [
        'moved',
        sql`update ${wallets} set
          available_balance = available_balance + ${release ? sql`hold.amount` : sql`0`},
          held_balance = held_balance - hold.amount,
          updated_at = now()
        from hold
        where ${walletOf(ref)} and held_balance >= hold.amount and not exists (select 1 from ${resolutionsOf})
        returning ${wallets}.*, hold.amount as moved_amount`,
      ],
      [
        'movement',
        sql`insert into ${ledgerTransactions}
          (wallet_id, kind, amount, reference, description, available_after, held_after, created_at)
        select id, ${resolution.kind}::text, moved_amount, ${resolution.reference}::text,
          ${resolution.description}::text, available_balance, held_balance, clock_timestamp()
        from moved
        returning id, wallet_id, amount`,
      ],
      [
        'entries',
        sql`insert into ${ledgerEntries} (transaction_id, wallet_id, account, amount)
        select id, wallet_id, 'held', -amount from movement
        union all
        select id, wallet_id, ${release ? 'available' : 'revenue'}::text, amount from movement
        returning 1`,
      ],
    ],
    answer: [
      ...movementColumns(ref),
      ['hold_amount', sql`(select amount from hold)`],
      [
        'resolutions',
        sql`(select coalesce(json_agg(json_build_object('id', id, 'kind', kind)), '[]') from ${resolutionsOf})`,
      ],
    ],
    settle: (answer) => {
      const resolutions = answer['resolutions'];
      return handlers.settle(
        {
          ...movementOutcome(answer),
          holdFound: answer['hold_amount'] !== null && answer['hold_amount'] !== undefined,
          resolutions: (typeof resolutions === 'string' ? JSON.parse(resolutions) : (resolutions ?? [])) as Array<{
            id: string;
            kind: string;
          }>,
        },
        () => work.transaction(),
      );
    },
    failed: handlers.failed,
  });
}
