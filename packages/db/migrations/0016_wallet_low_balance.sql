-- Each ledger movement records the wallet's balances right after it (docs/decisions.md#balance-after-each-movement),
-- written by @platform/ledger under the wallet's lock from now on. Rows written before this migration get them
-- from their entries: a running sum per wallet in the order they were created. The append-only trigger is
-- switched off for that one UPDATE only, inside this migration's transaction: it fills in new columns and
-- changes nothing that was recorded.
ALTER TABLE "ledger_transactions" ADD COLUMN "available_after" bigint;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "held_after" bigint;--> statement-breakpoint
ALTER TABLE "ledger_transactions" DISABLE TRIGGER "ledger_transactions_append_only";--> statement-breakpoint
UPDATE "ledger_transactions" AS "target"
SET "available_after" = "running"."available_after", "held_after" = "running"."held_after"
FROM (
  SELECT "movement"."id",
    sum(coalesce("change"."available", 0)) OVER "wallet_order" AS "available_after",
    sum(coalesce("change"."held", 0)) OVER "wallet_order" AS "held_after"
  FROM "ledger_transactions" AS "movement"
  LEFT JOIN (
    SELECT "transaction_id",
      sum("amount") FILTER (WHERE "account" = 'available') AS "available",
      sum("amount") FILTER (WHERE "account" = 'held') AS "held"
    FROM "ledger_entries"
    GROUP BY "transaction_id"
  ) AS "change" ON "change"."transaction_id" = "movement"."id"
  WINDOW "wallet_order" AS (
    PARTITION BY "movement"."wallet_id" ORDER BY "movement"."created_at", "movement"."id" ROWS UNBOUNDED PRECEDING
  )
) AS "running"
WHERE "running"."id" = "target"."id";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ENABLE TRIGGER "ledger_transactions_append_only";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ALTER COLUMN "available_after" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ALTER COLUMN "held_after" SET NOT NULL;--> statement-breakpoint
-- The low-balance alert of each wallet (docs/decisions.md#low-balance-alerts).
ALTER TABLE "wallets" ADD COLUMN "low_balance_threshold" bigint;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "low_balance_alerted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_low_balance_threshold_check" CHECK ("wallets"."low_balance_threshold" >= 0);
