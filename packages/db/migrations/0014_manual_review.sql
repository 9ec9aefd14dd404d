CREATE TABLE "verification_review_claims" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"reviewer_id" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "verification_review_claims_expiry_check" CHECK ("verification_review_claims"."expires_at" > "verification_review_claims"."claimed_at")
);
--> statement-breakpoint
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_role_check";--> statement-breakpoint
ALTER TABLE "organization_invitations" DROP CONSTRAINT "organization_invitations_role_check";--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "resubmit_documents" jsonb;--> statement-breakpoint
ALTER TABLE "verification_review_claims" ADD CONSTRAINT "verification_review_claims_session_id_verification_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."verification_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_review_claims" ADD CONSTRAINT "verification_review_claims_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_sessions_retention_idx" ON "verification_sessions" USING btree ("completed_at") WHERE "verification_sessions"."completed_at" is not null and "verification_sessions"."personal_data_erased_at" is null;--> statement-breakpoint
CREATE INDEX "verification_sessions_review_queue_idx" ON "verification_sessions" USING btree ("submitted_at","id") WHERE "verification_sessions"."status" = 'processing' and "verification_sessions"."decision_source" = 'manual';--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_role_check" CHECK ("memberships"."role" in ('owner', 'admin', 'developer', 'billing', 'member', 'reviewer'));--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_role_check" CHECK ("organization_invitations"."role" in ('owner', 'admin', 'developer', 'billing', 'member', 'reviewer'));