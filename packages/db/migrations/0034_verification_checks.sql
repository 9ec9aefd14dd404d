CREATE TABLE "verification_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"outcome" text NOT NULL,
	"code" text,
	"summary" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"evidence" "bytea",
	"provider_job_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_checks_kind_check" CHECK ("verification_checks"."kind" in ('id_registry', 'face_match', 'liveness', 'document_authenticity', 'mrz', 'document_expiry', 'age', 'duplicate_id_number', 'business_registry', 'directors', 'aml_screening')),
	CONSTRAINT "verification_checks_source_check" CHECK ("verification_checks"."source" in ('service', 'smile_id', 'test')),
	CONSTRAINT "verification_checks_outcome_check" CHECK ("verification_checks"."outcome" in ('passed', 'failed', 'attention', 'unavailable', 'not_applicable'))
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "permissions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "verification_retention_days" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "verification_policy" text;--> statement-breakpoint
ALTER TABLE "verification_provider_jobs" ADD COLUMN "kind" text;--> statement-breakpoint
-- Jobs before this migration were one per submission: Document Verification for kyc, Business Verification for kyb.
UPDATE "verification_provider_jobs" SET "kind" = CASE WHEN "verification_sessions"."type" = 'kyb' THEN 'business_verification' ELSE 'document_verification' END FROM "verification_sessions" WHERE "verification_sessions"."id" = "verification_provider_jobs"."session_id";--> statement-breakpoint
ALTER TABLE "verification_provider_jobs" ALTER COLUMN "kind" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "verified_outputs" "bytea";--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "id_number_digest" text;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "parent_session_id" uuid;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "decision_policy" text;--> statement-breakpoint
ALTER TABLE "verification_checks" ADD CONSTRAINT "verification_checks_session_id_verification_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."verification_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_checks" ADD CONSTRAINT "verification_checks_provider_job_id_verification_provider_jobs_id_fk" FOREIGN KEY ("provider_job_id") REFERENCES "public"."verification_provider_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_checks_session_idx" ON "verification_checks" USING btree ("session_id","submitted_at","created_at");--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD CONSTRAINT "verification_sessions_parent_session_id_verification_sessions_id_fk" FOREIGN KEY ("parent_session_id") REFERENCES "public"."verification_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_sessions_id_number_digest_idx" ON "verification_sessions" USING btree ("organization_id","environment","id_number_digest") WHERE "verification_sessions"."id_number_digest" is not null;--> statement-breakpoint
CREATE INDEX "verification_sessions_parent_idx" ON "verification_sessions" USING btree ("parent_session_id") WHERE "verification_sessions"."parent_session_id" is not null;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_permissions_check" CHECK (jsonb_typeof("api_keys"."permissions") = 'array' and "api_keys"."permissions" <@ '["verified_data:read"]'::jsonb);--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_verification_retention_days_check" CHECK ("organizations"."verification_retention_days" is null or "organizations"."verification_retention_days" > 0);--> statement-breakpoint
ALTER TABLE "verification_provider_jobs" ADD CONSTRAINT "verification_provider_jobs_kind_check" CHECK ("verification_provider_jobs"."kind" in ('document_verification', 'business_verification', 'enhanced_kyc', 'biometric_kyc', 'aml_screening'));