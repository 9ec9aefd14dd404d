-- A hold is captured or released, never both: at most one resolution per reference, whichever kind. The ledger
-- writes a movement in one statement (docs/decisions.md#statements-per-request) whose read of earlier resolutions
-- is its own snapshot, so of two resolutions racing the second meets this index (and writes nothing: ON CONFLICT DO
-- NOTHING) instead of a row lock taken in an earlier statement. The code never wrote two, so no row is in the way.
CREATE UNIQUE INDEX "ledger_transactions_one_resolution_per_hold" ON "ledger_transactions" USING btree ("reference") WHERE "ledger_transactions"."kind" in ('capture', 'release');