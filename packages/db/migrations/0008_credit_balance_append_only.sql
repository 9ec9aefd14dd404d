-- Credit movements are append-only, like the wallet ledger (0006): a movement is never edited or removed; a
-- mistake is put right by a new movement. Row triggers refuse UPDATE and DELETE, whoever asks.
CREATE FUNCTION "credit_balance_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Credit balance entries are append-only: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation', TABLE = TG_TABLE_NAME, HINT = 'Record a new credit movement instead.';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "credit_balance_entries_append_only" BEFORE UPDATE OR DELETE ON "credit_balance_entries"
  FOR EACH ROW EXECUTE FUNCTION "credit_balance_refuse_change"();
--> statement-breakpoint
-- mail_subscriptions.credit_balance caches the sum of the organization's entries (0 without a subscription
-- row). The entry and the cache are written one after the other in one transaction, so the check waits for
-- the commit (a deferred constraint trigger) and runs for every new entry and for every subscription row
-- inserted, deleted, or whose balance or organization changes.
CREATE FUNCTION "credit_balance_check_cached"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  checked uuid[];
  organization uuid;
  cached bigint;
  total numeric;
BEGIN
  IF TG_OP = 'INSERT' THEN
    checked := ARRAY[NEW.organization_id];
  ELSIF TG_OP = 'DELETE' THEN
    checked := ARRAY[OLD.organization_id];
  ELSE
    checked := ARRAY[OLD.organization_id, NEW.organization_id];
  END IF;
  FOREACH organization IN ARRAY checked LOOP
    -- One statement, so both are read from the same snapshot.
    SELECT coalesce((SELECT credit_balance FROM "mail_subscriptions" WHERE organization_id = organization), 0),
           (SELECT coalesce(sum(amount), 0) FROM "credit_balance_entries" WHERE organization_id = organization)
      INTO cached, total;
    IF cached <> total THEN
      RAISE EXCEPTION 'The credit balance of organization % is not the sum of its entries: % KES cached, % KES in entries',
        organization, cached, total
        USING ERRCODE = 'check_violation', TABLE = TG_TABLE_NAME, CONSTRAINT = TG_NAME;
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "credit_balance_entries_cached" AFTER INSERT ON "credit_balance_entries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "credit_balance_check_cached"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "mail_subscriptions_credit_balance_cached"
  AFTER INSERT OR DELETE OR UPDATE OF "credit_balance", "organization_id" ON "mail_subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "credit_balance_check_cached"();
