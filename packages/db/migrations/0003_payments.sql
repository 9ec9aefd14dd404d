CREATE TABLE "payment_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid,
	"type" text NOT NULL,
	"source" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"provider_event_key" text,
	"payload" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_events_provider_event_key_unique" UNIQUE("provider_event_key"),
	CONSTRAINT "payment_events_type_check" CHECK ("payment_events"."type" in ('created', 'provider_accepted', 'provider_error', 'provider_event', 'status_changed')),
	CONSTRAINT "payment_events_from_status_check" CHECK ("payment_events"."from_status" is null or "payment_events"."from_status" in ('pending', 'succeeded', 'failed', 'cancelled', 'expired')),
	CONSTRAINT "payment_events_to_status_check" CHECK ("payment_events"."to_status" is null or "payment_events"."to_status" in ('pending', 'succeeded', 'failed', 'cancelled', 'expired')),
	CONSTRAINT "payment_events_transition_check" CHECK (("payment_events"."type" = 'status_changed') = ("payment_events"."to_status" is not null))
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"type" text NOT NULL,
	"provider" text NOT NULL,
	"fingerprint" text NOT NULL,
	"authorization_code" text,
	"customer_email" text,
	"brand" text,
	"last4" text,
	"exp_month" integer,
	"exp_year" integer,
	"bank" text,
	"phone" text,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "payment_methods_type_check" CHECK ("payment_methods"."type" in ('card', 'mobile_money')),
	CONSTRAINT "payment_methods_provider_check" CHECK ("payment_methods"."provider" in ('paystack', 'daraja', 'sandbox')),
	CONSTRAINT "payment_methods_details_check" CHECK (("payment_methods"."type" = 'card' and "payment_methods"."authorization_code" is not null and "payment_methods"."last4" is not null)
        or ("payment_methods"."type" = 'mobile_money' and "payment_methods"."phone" is not null)),
	CONSTRAINT "payment_methods_phone_check" CHECK ("payment_methods"."phone" is null or "payment_methods"."phone" ~ '^254[0-9]{9}$')
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" text,
	"method" text NOT NULL,
	"channel" text NOT NULL,
	"purpose" text NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text DEFAULT 'KES' NOT NULL,
	"phone" text,
	"payment_method_id" uuid,
	"plan" text,
	"seats" integer,
	"billing_cycle" text,
	"provider_reference" text,
	"account_reference" text,
	"checkout_url" text,
	"failure_reason" text,
	"next_check_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payments_reference_unique" UNIQUE("reference"),
	CONSTRAINT "payments_reference_check" CHECK ("payments"."reference" ~ '^PAY-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'),
	CONSTRAINT "payments_method_check" CHECK ("payments"."method" in ('card', 'mobile_money', 'saved_method')),
	CONSTRAINT "payments_channel_check" CHECK ("payments"."channel" in ('card', 'mobile_money')),
	CONSTRAINT "payments_method_channel_check" CHECK ("payments"."method" = 'saved_method' or "payments"."method" = "payments"."channel"),
	CONSTRAINT "payments_purpose_check" CHECK ("payments"."purpose" in ('wallet_topup', 'mail_subscription')),
	CONSTRAINT "payments_provider_check" CHECK ("payments"."provider" in ('paystack', 'daraja', 'sandbox')),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('pending', 'succeeded', 'failed', 'cancelled', 'expired')),
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount" > 0),
	CONSTRAINT "payments_currency_check" CHECK ("payments"."currency" = 'KES'),
	CONSTRAINT "payments_phone_check" CHECK ("payments"."phone" is null or "payments"."phone" ~ '^254[0-9]{9}$'),
	CONSTRAINT "payments_mobile_money_phone_check" CHECK ("payments"."channel" <> 'mobile_money' or "payments"."phone" is not null),
	CONSTRAINT "payments_subscription_terms_check" CHECK (("payments"."purpose" = 'mail_subscription') = ("payments"."plan" is not null and "payments"."seats" is not null and "payments"."billing_cycle" is not null)),
	CONSTRAINT "payments_plan_check" CHECK ("payments"."plan" is null or "payments"."plan" in ('core', 'growth', 'scale')),
	CONSTRAINT "payments_billing_cycle_check" CHECK ("payments"."billing_cycle" is null or "payments"."billing_cycle" in ('monthly', 'yearly')),
	CONSTRAINT "payments_seats_check" CHECK ("payments"."seats" is null or "payments"."seats" between 1 and 1000000),
	CONSTRAINT "payments_account_reference_check" CHECK ("payments"."account_reference" is null or char_length("payments"."account_reference") <= 12),
	CONSTRAINT "payments_completed_at_check" CHECK (("payments"."status" = 'pending') = ("payments"."completed_at" is null))
);
--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_events_payment_idx" ON "payment_events" USING btree ("payment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_active_unique" ON "payment_methods" USING btree ("organization_id","type","fingerprint") WHERE "payment_methods"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "payment_methods_organization_idx" ON "payment_methods" USING btree ("organization_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_reference_unique" ON "payments" USING btree ("provider","provider_reference");--> statement-breakpoint
CREATE INDEX "payments_organization_idx" ON "payments" USING btree ("organization_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_due_check_idx" ON "payments" USING btree ("next_check_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payments_account_reference_idx" ON "payments" USING btree ("account_reference");