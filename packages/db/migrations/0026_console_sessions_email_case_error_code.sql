CREATE TABLE "review_console_sessions" (
	"secret_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "review_console_sessions_secret_hash_check" CHECK ("review_console_sessions"."secret_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_email_unique";--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "last_error_code" text;--> statement-breakpoint
ALTER TABLE "review_console_sessions" ADD CONSTRAINT "review_console_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_console_sessions_user_id_idx" ON "review_console_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "review_console_sessions_expires_at_idx" ON "review_console_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD CONSTRAINT "verification_sessions_last_error_code_check" CHECK ("verification_sessions"."last_error_code" is null or "verification_sessions"."last_error_code" in ('consent_declined'));