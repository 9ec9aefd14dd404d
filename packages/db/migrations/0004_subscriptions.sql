CREATE TABLE "credit_balance_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"reason" text NOT NULL,
	"reference" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_balance_entries_reason_check" CHECK ("credit_balance_entries"."reason" in ('downgrade', 'duplicate_purchase', 'unapplied_charge', 'upgrade', 'renewal')),
	CONSTRAINT "credit_balance_entries_amount_check" CHECK ("credit_balance_entries"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "mail_subscription_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"base_version" integer NOT NULL,
	"from_plan" text NOT NULL,
	"from_seats" integer NOT NULL,
	"from_billing_cycle" text NOT NULL,
	"plan" text NOT NULL,
	"seats" integer NOT NULL,
	"billing_cycle" text NOT NULL,
	"billing_anchor" date NOT NULL,
	"period_index" integer NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"net" bigint NOT NULL,
	"credit_applied" bigint NOT NULL,
	"amount_due" bigint NOT NULL,
	"payment_id" uuid,
	"requested_by_user_id" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "mail_subscription_changes_kind_check" CHECK ("mail_subscription_changes"."kind" in ('upgrade', 'downgrade', 'change', 'renewal')),
	CONSTRAINT "mail_subscription_changes_status_check" CHECK ("mail_subscription_changes"."status" in ('charging', 'applied', 'failed', 'superseded')),
	CONSTRAINT "mail_subscription_changes_from_plan_check" CHECK ("mail_subscription_changes"."from_plan" in ('core', 'growth', 'scale')),
	CONSTRAINT "mail_subscription_changes_plan_check" CHECK ("mail_subscription_changes"."plan" in ('core', 'growth', 'scale')),
	CONSTRAINT "mail_subscription_changes_from_billing_cycle_check" CHECK ("mail_subscription_changes"."from_billing_cycle" in ('monthly', 'yearly')),
	CONSTRAINT "mail_subscription_changes_billing_cycle_check" CHECK ("mail_subscription_changes"."billing_cycle" in ('monthly', 'yearly')),
	CONSTRAINT "mail_subscription_changes_seats_check" CHECK ("mail_subscription_changes"."seats" between 1 and 1000000 and "mail_subscription_changes"."from_seats" between 1 and 1000000),
	CONSTRAINT "mail_subscription_changes_period_check" CHECK ("mail_subscription_changes"."period_end" > "mail_subscription_changes"."period_start" and "mail_subscription_changes"."period_index" >= 0),
	CONSTRAINT "mail_subscription_changes_amounts_check" CHECK ("mail_subscription_changes"."credit_applied" >= 0 and "mail_subscription_changes"."amount_due" >= 0 and "mail_subscription_changes"."amount_due" + "mail_subscription_changes"."credit_applied" = greatest("mail_subscription_changes"."net", 0)),
	CONSTRAINT "mail_subscription_changes_completed_at_check" CHECK (("mail_subscription_changes"."status" = 'charging') = ("mail_subscription_changes"."completed_at" is null))
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_purpose_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_subscription_terms_check";--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "billing_anchor" date;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "period_index" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "credit_balance" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "payment_method_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "renewal_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credit_balance_entries" ADD CONSTRAINT "credit_balance_entries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_subscription_changes" ADD CONSTRAINT "mail_subscription_changes_subscription_id_mail_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."mail_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_subscription_changes" ADD CONSTRAINT "mail_subscription_changes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_subscription_changes" ADD CONSTRAINT "mail_subscription_changes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_subscription_changes" ADD CONSTRAINT "mail_subscription_changes_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_balance_entries_reason_reference_unique" ON "credit_balance_entries" USING btree ("reason","reference");--> statement-breakpoint
CREATE INDEX "credit_balance_entries_organization_idx" ON "credit_balance_entries" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_subscription_changes_one_charging" ON "mail_subscription_changes" USING btree ("subscription_id") WHERE "mail_subscription_changes"."status" = 'charging';--> statement-breakpoint
CREATE UNIQUE INDEX "mail_subscription_changes_payment_unique" ON "mail_subscription_changes" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "mail_subscription_changes_subscription_idx" ON "mail_subscription_changes" USING btree ("subscription_id","created_at");--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_subscriptions_renewal_due_idx" ON "mail_subscriptions" USING btree ("renewal_due_at") WHERE "mail_subscriptions"."renewal_due_at" is not null;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_period_index_check" CHECK ("mail_subscriptions"."period_index" >= 0);--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_version_check" CHECK ("mail_subscriptions"."version" >= 0);--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_credit_balance_check" CHECK ("mail_subscriptions"."credit_balance" >= 0);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_purpose_check" CHECK ("payments"."purpose" in ('wallet_topup', 'mail_subscription', 'mail_subscription_change', 'mail_subscription_renewal'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_subscription_terms_check" CHECK (("payments"."purpose" in ('mail_subscription', 'mail_subscription_change', 'mail_subscription_renewal')) = ("payments"."plan" is not null and "payments"."seats" is not null and "payments"."billing_cycle" is not null));--> statement-breakpoint
-- Subscriptions from before periods had an anchor count their periods from the day they started; active and
-- past_due ones renew at the end of their period.
UPDATE "mail_subscriptions" SET "billing_anchor" = ("current_period_start" at time zone 'UTC')::date, "renewal_due_at" = CASE WHEN "status" in ('active', 'past_due') THEN "current_period_end" END;
