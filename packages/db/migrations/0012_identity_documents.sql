-- Identity documents: the session's locale, return URL and decision source, its submitted details (ciphertext
-- only, never plaintext), and the documents and consents a person sends (docs/decisions.md#identity-documents).
CREATE TABLE "verification_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"text_version" text NOT NULL,
	"locale" text NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_consents_locale_check" CHECK ("verification_consents"."locale" in ('en', 'sw'))
);
--> statement-breakpoint
CREATE TABLE "verification_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"encryption_key_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"superseded_at" timestamp with time zone,
	"erased_at" timestamp with time zone,
	CONSTRAINT "verification_documents_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "verification_documents_kind_check" CHECK ("verification_documents"."kind" in ('id_document_front', 'id_document_back', 'selfie', 'certificate_of_incorporation', 'cr12', 'kra_pin_certificate', 'director_id')),
	CONSTRAINT "verification_documents_content_type_check" CHECK ("verification_documents"."content_type" in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')),
	CONSTRAINT "verification_documents_size_bytes_check" CHECK ("verification_documents"."size_bytes" > 0),
	CONSTRAINT "verification_documents_sha256_check" CHECK ("verification_documents"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "return_url" text;--> statement-breakpoint
-- Sessions made before decision sources were decided the way the hosted page offered then: test sessions by its
-- sandbox buttons; live ones are left to a reviewer (docs/decisions.md#decision-sources).
ALTER TABLE "verification_sessions" ADD COLUMN "decision_source" text;--> statement-breakpoint
UPDATE "verification_sessions" SET "decision_source" = CASE WHEN "environment" = 'test' THEN 'sandbox' ELSE 'manual' END;--> statement-breakpoint
ALTER TABLE "verification_sessions" ALTER COLUMN "decision_source" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "submitted_details" bytea;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD COLUMN "personal_data_erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_consents" ADD CONSTRAINT "verification_consents_session_id_verification_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."verification_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_documents" ADD CONSTRAINT "verification_documents_session_id_verification_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."verification_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_consents_session_idx" ON "verification_consents" USING btree ("session_id","created_at");--> statement-breakpoint
CREATE INDEX "verification_documents_session_idx" ON "verification_documents" USING btree ("session_id","created_at");--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD CONSTRAINT "verification_sessions_locale_check" CHECK ("verification_sessions"."locale" in ('en', 'sw'));--> statement-breakpoint
ALTER TABLE "verification_sessions" ADD CONSTRAINT "verification_sessions_decision_source_check" CHECK ("verification_sessions"."decision_source" in ('sandbox', 'manual'));