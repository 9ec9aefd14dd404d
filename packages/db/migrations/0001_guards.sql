CREATE TABLE "idempotency_records" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text NOT NULL,
	"locked_at" timestamp with time zone NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"response_headers" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_records_scope_key_pk" PRIMARY KEY("scope","key"),
	CONSTRAINT "idempotency_records_status_check" CHECK ("idempotency_records"."status" in ('in_progress', 'completed')),
	CONSTRAINT "idempotency_records_key_check" CHECK (char_length("idempotency_records"."key") between 1 and 255),
	CONSTRAINT "idempotency_records_response_check" CHECK ("idempotency_records"."status" <> 'completed' or coalesce("idempotency_records"."response_status" between 200 and 299, false))
);
--> statement-breakpoint
CREATE TABLE "drive_folders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"environment" text NOT NULL,
	"parent_id" uuid,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drive_folders_id_organization_id_environment_unique" UNIQUE("id","organization_id","environment"),
	CONSTRAINT "drive_folders_environment_check" CHECK ("drive_folders"."environment" in ('live', 'test')),
	CONSTRAINT "drive_folders_name_check" CHECK (char_length("drive_folders"."name") between 1 and 255 and strpos("drive_folders"."name", '/') = 0 and "drive_folders"."name" !~ '[\u0001-\u001f\u007f-\u009f]')
);
--> statement-breakpoint
CREATE TABLE "mail_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"plan" text NOT NULL,
	"seats" integer NOT NULL,
	"billing_cycle" text NOT NULL,
	"status" text NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_subscriptions_organization_id_unique" UNIQUE("organization_id"),
	CONSTRAINT "mail_subscriptions_plan_check" CHECK ("mail_subscriptions"."plan" in ('core', 'growth', 'scale')),
	CONSTRAINT "mail_subscriptions_billing_cycle_check" CHECK ("mail_subscriptions"."billing_cycle" in ('monthly', 'yearly')),
	CONSTRAINT "mail_subscriptions_status_check" CHECK ("mail_subscriptions"."status" in ('active', 'past_due', 'canceled', 'expired')),
	CONSTRAINT "mail_subscriptions_seats_check" CHECK ("mail_subscriptions"."seats" between 1 and 1000000),
	CONSTRAINT "mail_subscriptions_period_check" CHECK ("mail_subscriptions"."current_period_end" > "mail_subscriptions"."current_period_start")
);
--> statement-breakpoint
ALTER TABLE "drive_folders" ADD CONSTRAINT "drive_folders_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drive_folders" ADD CONSTRAINT "drive_folders_parent_fk" FOREIGN KEY ("parent_id","organization_id","environment") REFERENCES "public"."drive_folders"("id","organization_id","environment") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "drive_folders_sibling_name_unique" ON "drive_folders" USING btree ("organization_id","environment",coalesce("parent_id", '00000000-0000-0000-0000-000000000000'::uuid),lower("name"));--> statement-breakpoint
CREATE INDEX "drive_folders_listing_idx" ON "drive_folders" USING btree ("organization_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "drive_folders_parent_listing_idx" ON "drive_folders" USING btree ("parent_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);