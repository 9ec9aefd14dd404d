CREATE TABLE "dashboard_sessions" (
	"secret_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "dashboard_sessions_secret_hash_check" CHECK ("dashboard_sessions"."secret_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dashboard_sessions_user_id_idx" ON "dashboard_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "dashboard_sessions_expires_at_idx" ON "dashboard_sessions" USING btree ("expires_at");