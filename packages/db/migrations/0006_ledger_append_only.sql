-- The wallet ledger is append-only (DECISIONS 2): a movement is never edited or removed; a mistake is put
-- right by a new movement. Row triggers refuse UPDATE and DELETE on both ledger tables, whoever asks.
CREATE FUNCTION "ledger_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The ledger is append-only: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation', TABLE = TG_TABLE_NAME, HINT = 'Record a new ledger movement instead.';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_transactions_append_only" BEFORE UPDATE OR DELETE ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION "ledger_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_refuse_change"();
--> statement-breakpoint
-- Double entry: a ledger transaction has at least two entries and they sum to zero. The transaction row and
-- its entries are inserted one after another, so the check waits for the commit (a deferred constraint
-- trigger) and runs for the new transaction and for every new entry (an entry added to an old transaction
-- later is caught too).
CREATE FUNCTION "ledger_check_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  checked uuid;
  entry_count bigint;
  total numeric;
BEGIN
  IF TG_TABLE_NAME = 'ledger_transactions' THEN
    checked := NEW.id;
  ELSE
    checked := NEW.transaction_id;
  END IF;
  SELECT count(*), coalesce(sum(amount), 0) INTO entry_count, total
    FROM "ledger_entries" WHERE transaction_id = checked;
  IF entry_count < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'Ledger transaction % is not balanced: % entries summing to % KES', checked, entry_count, total
      USING ERRCODE = 'check_violation', TABLE = TG_TABLE_NAME, CONSTRAINT = TG_NAME;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_transactions_balanced" AFTER INSERT ON "ledger_transactions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_check_balanced"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_entries_balanced" AFTER INSERT ON "ledger_entries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_check_balanced"();
