ALTER TABLE "verification_consents" ALTER COLUMN "ip" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "privacy_notice_url" text;--> statement-breakpoint
-- Erasure now also removes the address and user agent a consent was given from; sessions erased before this
-- migration lose them here (the time, text version and locale stay as evidence of the consent).
UPDATE "verification_consents" SET "ip" = NULL, "user_agent" = NULL WHERE "session_id" IN (SELECT "id" FROM "verification_sessions" WHERE "personal_data_erased_at" IS NOT NULL);
