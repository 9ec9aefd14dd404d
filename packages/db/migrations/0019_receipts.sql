CREATE TABLE "document_number_series" (
	"series" text PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_number_series_last_number_check" CHECK ("document_number_series"."last_number" > 0)
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"payment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"seller_name" text NOT NULL,
	"seller_address" text NOT NULL,
	"seller_kra_pin" text NOT NULL,
	"buyer_name" text NOT NULL,
	"buyer_kra_pin" text,
	"purpose" text NOT NULL,
	"plan" text,
	"seats" integer,
	"billing_cycle" text,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"note" text,
	"total" bigint NOT NULL,
	"net" bigint NOT NULL,
	"vat" bigint NOT NULL,
	"vat_rate_percent" integer NOT NULL,
	"payment_reference" text NOT NULL,
	"channel" text NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text,
	"paid_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_sequence_unique" UNIQUE("sequence"),
	CONSTRAINT "receipts_number_unique" UNIQUE("number"),
	CONSTRAINT "receipts_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "receipts_sequence_check" CHECK ("receipts"."sequence" > 0),
	CONSTRAINT "receipts_number_check" CHECK ("receipts"."number" ~ '^RCT-[0-9]{6,}$' and substr("receipts"."number", 5)::bigint = "receipts"."sequence"),
	CONSTRAINT "receipts_amounts_check" CHECK ("receipts"."total" > 0 and "receipts"."net" >= 0 and "receipts"."vat" >= 0),
	CONSTRAINT "receipts_vat_included_check" CHECK ("receipts"."net" + "receipts"."vat" = "receipts"."total"),
	CONSTRAINT "receipts_vat_rate_check" CHECK ("receipts"."vat_rate_percent" between 0 and 100),
	CONSTRAINT "receipts_seller_kra_pin_check" CHECK ("receipts"."seller_kra_pin" ~ '^[A-Z][0-9]{9}[A-Z]$'),
	CONSTRAINT "receipts_buyer_kra_pin_check" CHECK ("receipts"."buyer_kra_pin" is null or "receipts"."buyer_kra_pin" ~ '^[A-Z][0-9]{9}[A-Z]$'),
	CONSTRAINT "receipts_purpose_check" CHECK ("receipts"."purpose" in ('wallet_topup', 'mail_subscription', 'mail_subscription_change', 'mail_subscription_renewal')),
	CONSTRAINT "receipts_plan_check" CHECK ("receipts"."plan" is null or "receipts"."plan" in ('core', 'growth', 'scale')),
	CONSTRAINT "receipts_billing_cycle_check" CHECK ("receipts"."billing_cycle" is null or "receipts"."billing_cycle" in ('monthly', 'yearly')),
	CONSTRAINT "receipts_terms_check" CHECK (("receipts"."plan" is null) = ("receipts"."seats" is null) and ("receipts"."plan" is null) = ("receipts"."billing_cycle" is null)),
	CONSTRAINT "receipts_period_check" CHECK (("receipts"."period_start" is null) = ("receipts"."period_end" is null) and ("receipts"."period_end" is null or "receipts"."period_end" > "receipts"."period_start")),
	CONSTRAINT "receipts_channel_check" CHECK ("receipts"."channel" in ('card', 'mobile_money')),
	CONSTRAINT "receipts_provider_check" CHECK ("receipts"."provider" in ('paystack', 'daraja', 'sandbox'))
);
--> statement-breakpoint
DROP INDEX "payments_organization_idx";--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_organization_idx" ON "payments" USING btree ("organization_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- A receipt, once issued, is never edited or removed, like the audit log (0011): row triggers refuse UPDATE and
-- DELETE on receipts, whoever asks (docs/decisions.md#billing-documents).
CREATE FUNCTION "receipts_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Receipts are never changed once issued: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation', TABLE = TG_TABLE_NAME;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "receipts_append_only" BEFORE UPDATE OR DELETE ON "receipts"
  FOR EACH ROW EXECUTE FUNCTION "receipts_refuse_change"();
