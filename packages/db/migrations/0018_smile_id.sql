CREATE TABLE "verification_provider_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_job_id" text,
	"status" text DEFAULT 'creating' NOT NULL,
	"result_code" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"submitted_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"next_check_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_provider_jobs_provider_check" CHECK ("verification_provider_jobs"."provider" in ('smile_id')),
	CONSTRAINT "verification_provider_jobs_status_check" CHECK ("verification_provider_jobs"."status" in ('creating', 'submitted', 'completed', 'failed')),
	CONSTRAINT "verification_provider_jobs_attempts_check" CHECK ("verification_provider_jobs"."attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "verification_sessions" DROP CONSTRAINT "verification_sessions_decision_source_check";--> statement-breakpoint
ALTER TABLE "verification_provider_jobs" ADD CONSTRAINT "verification_provider_jobs_session_id_verification_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."verification_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "verification_provider_jobs_open_session_idx" ON "verification_provider_jobs" USING btree ("session_id") WHERE "verification_provider_jobs"."status" in ('creating', 'submitted');--> statement-breakpoint
CREATE INDEX "verification_provider_jobs_due_idx" ON "verification_provider_jobs" USING btree ("next_check_at") WHERE "verification_provider_jobs"."status" in ('creating', 'submitted');--> statement-breakpoint
CREATE INDEX "verification_provider_jobs_session_idx" ON "verification_provider_jobs" USING btree ("session_id","created_at");--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD CONSTRAINT "verification_sessions_decision_source_check" CHECK ("verification_sessions"."decision_source" in ('sandbox', 'manual', 'smile_id'));