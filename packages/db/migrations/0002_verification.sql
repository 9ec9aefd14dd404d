CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"wallet_id" uuid NOT NULL,
	"account" text NOT NULL,
	"amount" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_account_check" CHECK ("ledger_entries"."account" in ('available', 'held', 'funding', 'revenue')),
	CONSTRAINT "ledger_entries_amount_check" CHECK ("ledger_entries"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wallet_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"reference" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transactions_kind_reference_unique" UNIQUE("kind","reference"),
	CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('top_up', 'hold', 'capture', 'release')),
	CONSTRAINT "ledger_transactions_amount_check" CHECK ("ledger_transactions"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"environment" text NOT NULL,
	"available_balance" bigint DEFAULT 0 NOT NULL,
	"held_balance" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallets_organization_environment_unique" UNIQUE("organization_id","environment"),
	CONSTRAINT "wallets_environment_check" CHECK ("wallets"."environment" in ('live', 'test')),
	CONSTRAINT "wallets_available_balance_check" CHECK ("wallets"."available_balance" >= 0),
	CONSTRAINT "wallets_held_balance_check" CHECK ("wallets"."held_balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "verification_prices" (
	"organization_id" uuid NOT NULL,
	"type" text NOT NULL,
	"price" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_prices_organization_id_type_pk" PRIMARY KEY("organization_id","type"),
	CONSTRAINT "verification_prices_type_check" CHECK ("verification_prices"."type" in ('kyc', 'kyb')),
	CONSTRAINT "verification_prices_price_check" CHECK ("verification_prices"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "verification_session_transitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"environment" text NOT NULL,
	"api_key_id" uuid,
	"wallet_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"external_end_user_id" text NOT NULL,
	"app_name" text,
	"callback_url" text,
	"price" bigint NOT NULL,
	"required_documents" jsonb NOT NULL,
	"last_error" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "verification_sessions_environment_check" CHECK ("verification_sessions"."environment" in ('live', 'test')),
	CONSTRAINT "verification_sessions_type_check" CHECK ("verification_sessions"."type" in ('kyc', 'kyb')),
	CONSTRAINT "verification_sessions_status_check" CHECK ("verification_sessions"."status" in ('pending', 'processing', 'requires_input', 'verified', 'rejected', 'expired', 'canceled')),
	CONSTRAINT "verification_sessions_price_check" CHECK ("verification_sessions"."price" >= 0),
	CONSTRAINT "verification_sessions_external_end_user_id_check" CHECK (char_length("verification_sessions"."external_end_user_id") between 1 and 255)
);
--> statement-breakpoint
CREATE TABLE "disabled_webhook_targets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"environment" text NOT NULL,
	"url" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disabled_webhook_targets_unique" UNIQUE("organization_id","environment","url")
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"url" text NOT NULL,
	"response_status" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"environment" text NOT NULL,
	"default_url" text,
	"secret" text NOT NULL,
	"secret_revealed_at" timestamp with time zone,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_organization_environment_unique" UNIQUE("organization_id","environment"),
	CONSTRAINT "webhook_endpoints_environment_check" CHECK ("webhook_endpoints"."environment" in ('live', 'test'))
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"environment" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"target_url" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"last_response_status" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_events_environment_check" CHECK ("webhook_events"."environment" in ('live', 'test')),
	CONSTRAINT "webhook_events_status_check" CHECK ("webhook_events"."status" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_prices" ADD CONSTRAINT "verification_prices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_session_transitions" ADD CONSTRAINT "verification_session_transitions_session_id_verification_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."verification_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD CONSTRAINT "verification_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD CONSTRAINT "verification_sessions_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD CONSTRAINT "verification_sessions_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disabled_webhook_targets" ADD CONSTRAINT "disabled_webhook_targets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_wallet_account_idx" ON "ledger_entries" USING btree ("wallet_id","account");--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_id_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_wallet_id_idx" ON "ledger_transactions" USING btree ("wallet_id","created_at");--> statement-breakpoint
CREATE INDEX "verification_session_transitions_session_idx" ON "verification_session_transitions" USING btree ("session_id","created_at");--> statement-breakpoint
CREATE INDEX "verification_sessions_list_idx" ON "verification_sessions" USING btree ("organization_id","environment","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "verification_sessions_end_user_idx" ON "verification_sessions" USING btree ("organization_id","external_end_user_id");--> statement-breakpoint
CREATE INDEX "verification_sessions_expiry_idx" ON "verification_sessions" USING btree ("expires_at") WHERE "verification_sessions"."status" in ('pending', 'requires_input');--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_event_idx" ON "webhook_delivery_attempts" USING btree ("event_id","attempt");--> statement-breakpoint
CREATE INDEX "webhook_events_due_idx" ON "webhook_events" USING btree ("next_attempt_at") WHERE "webhook_events"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_events_organization_idx" ON "webhook_events" USING btree ("organization_id","created_at");