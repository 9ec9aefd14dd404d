ALTER TABLE "organizations" ADD COLUMN "activated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "activation_session_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_activation_session_id_unique" ON "organizations" USING btree ("activation_session_id");--> statement-breakpoint
-- Organizations that existed before activation keep their live keys and top-ups: they count as activated
-- (docs/decisions.md#going-live).
UPDATE "organizations" SET "activated_at" = "created_at" WHERE "activated_at" IS NULL;
