CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"payment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"seller_name" text NOT NULL,
	"seller_address" text NOT NULL,
	"seller_kra_pin" text NOT NULL,
	"buyer_name" text NOT NULL,
	"buyer_kra_pin" text,
	"purpose" text NOT NULL,
	"plan" text,
	"seats" integer,
	"billing_cycle" text,
	"total" bigint NOT NULL,
	"net" bigint NOT NULL,
	"vat" bigint NOT NULL,
	"vat_rate_percent" integer NOT NULL,
	"payment_reference" text NOT NULL,
	"transfer_reference" text NOT NULL,
	"bank_name" text NOT NULL,
	"bank_account_name" text NOT NULL,
	"bank_account_number" text NOT NULL,
	"bank_branch" text NOT NULL,
	"sandbox" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_sequence_unique" UNIQUE("sequence"),
	CONSTRAINT "invoices_number_unique" UNIQUE("number"),
	CONSTRAINT "invoices_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "invoices_sequence_check" CHECK ("invoices"."sequence" > 0),
	CONSTRAINT "invoices_number_check" CHECK ("invoices"."number" ~ '^INV-[0-9]{6,}$' and substr("invoices"."number", 5)::bigint = "invoices"."sequence"),
	CONSTRAINT "invoices_dates_check" CHECK ("invoices"."due_at" > "invoices"."issued_at" and "invoices"."expires_at" >= "invoices"."due_at"),
	CONSTRAINT "invoices_amounts_check" CHECK ("invoices"."total" > 0 and "invoices"."net" >= 0 and "invoices"."vat" >= 0),
	CONSTRAINT "invoices_vat_included_check" CHECK ("invoices"."net" + "invoices"."vat" = "invoices"."total"),
	CONSTRAINT "invoices_vat_rate_check" CHECK ("invoices"."vat_rate_percent" between 0 and 100),
	CONSTRAINT "invoices_seller_kra_pin_check" CHECK ("invoices"."seller_kra_pin" ~ '^[A-Z][0-9]{9}[A-Z]$'),
	CONSTRAINT "invoices_buyer_kra_pin_check" CHECK ("invoices"."buyer_kra_pin" is null or "invoices"."buyer_kra_pin" ~ '^[A-Z][0-9]{9}[A-Z]$'),
	CONSTRAINT "invoices_purpose_check" CHECK ("invoices"."purpose" in ('wallet_topup', 'mail_subscription', 'mail_subscription_change', 'mail_subscription_renewal')),
	CONSTRAINT "invoices_plan_check" CHECK ("invoices"."plan" is null or "invoices"."plan" in ('core', 'growth', 'scale')),
	CONSTRAINT "invoices_billing_cycle_check" CHECK ("invoices"."billing_cycle" is null or "invoices"."billing_cycle" in ('monthly', 'yearly')),
	CONSTRAINT "invoices_terms_check" CHECK (("invoices"."plan" is null) = ("invoices"."seats" is null) and ("invoices"."plan" is null) = ("invoices"."billing_cycle" is null)),
	CONSTRAINT "invoices_transfer_reference_check" CHECK ("invoices"."transfer_reference" ~ '^BT[0-9A-HJKMNP-TV-Z]{8}$')
);
--> statement-breakpoint
CREATE TABLE "bank_transfer_confirmations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"confirmed_by_user_id" text NOT NULL,
	"amount_received" bigint NOT NULL,
	"amount_due" bigint NOT NULL,
	"bank_reference" text NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_transfer_confirmations_outcome_check" CHECK ("bank_transfer_confirmations"."outcome" in ('applied', 'amount_mismatch')),
	CONSTRAINT "bank_transfer_confirmations_amounts_check" CHECK ("bank_transfer_confirmations"."amount_received" > 0 and "bank_transfer_confirmations"."amount_due" > 0 and ("bank_transfer_confirmations"."outcome" = 'applied') = ("bank_transfer_confirmations"."amount_received" = "bank_transfer_confirmations"."amount_due")),
	CONSTRAINT "bank_transfer_confirmations_bank_reference_check" CHECK (char_length("bank_transfer_confirmations"."bank_reference") between 1 and 64)
);
--> statement-breakpoint
ALTER TABLE "receipts" DROP CONSTRAINT "receipts_channel_check";--> statement-breakpoint
ALTER TABLE "receipts" DROP CONSTRAINT "receipts_provider_check";--> statement-breakpoint
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_role_check";--> statement-breakpoint
ALTER TABLE "organization_invitations" DROP CONSTRAINT "organization_invitations_role_check";--> statement-breakpoint
ALTER TABLE "payment_methods" DROP CONSTRAINT "payment_methods_provider_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_method_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_channel_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_provider_check";--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfer_confirmations" ADD CONSTRAINT "bank_transfer_confirmations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_transfer_confirmations_applied_unique" ON "bank_transfer_confirmations" USING btree ("payment_id") WHERE "bank_transfer_confirmations"."outcome" = 'applied';--> statement-breakpoint
CREATE INDEX "bank_transfer_confirmations_payment_idx" ON "bank_transfer_confirmations" USING btree ("payment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_bank_transfer_reference_unique" ON "payments" USING btree ("account_reference") WHERE "payments"."channel" = 'bank_transfer';--> statement-breakpoint
CREATE INDEX "payments_bank_transfers_idx" ON "payments" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "payments"."channel" = 'bank_transfer';--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_channel_check" CHECK ("receipts"."channel" in ('card', 'mobile_money', 'bank_transfer'));--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_provider_check" CHECK ("receipts"."provider" in ('paystack', 'daraja', 'sandbox', 'bank_transfer'));--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_role_check" CHECK ("memberships"."role" in ('owner', 'admin', 'developer', 'billing', 'member', 'reviewer', 'finance'));--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_role_check" CHECK ("organization_invitations"."role" in ('owner', 'admin', 'developer', 'billing', 'member', 'reviewer', 'finance'));--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_provider_check" CHECK ("payment_methods"."provider" in ('paystack', 'daraja', 'sandbox', 'bank_transfer'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_bank_transfer_check" CHECK (("payments"."channel" = 'bank_transfer') = ("payments"."provider" = 'bank_transfer') and ("payments"."channel" <> 'bank_transfer' or "payments"."account_reference" is not null));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_method_check" CHECK ("payments"."method" in ('card', 'mobile_money', 'saved_method', 'bank_transfer'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_channel_check" CHECK ("payments"."channel" in ('card', 'mobile_money', 'bank_transfer'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_provider_check" CHECK ("payments"."provider" in ('paystack', 'daraja', 'sandbox', 'bank_transfer'));--> statement-breakpoint
-- An invoice, once issued, is never edited or removed, like a receipt (0019); whether it was paid or lapsed is its
-- payment's status. What finance recorded about a bank transfer is kept as recorded. Row triggers refuse UPDATE and
-- DELETE on both, whoever asks (docs/decisions.md#bank-transfers).
CREATE FUNCTION "billing_records_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Billing records are never changed once written: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation', TABLE = TG_TABLE_NAME;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "invoices_append_only" BEFORE UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION "billing_records_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "bank_transfer_confirmations_append_only" BEFORE UPDATE OR DELETE ON "bank_transfer_confirmations"
  FOR EACH ROW EXECUTE FUNCTION "billing_records_refuse_change"();
