ALTER TABLE "organizations" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "billing_email" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_address_check" CHECK ("organizations"."address" is null or char_length("organizations"."address") between 1 and 200);--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_billing_email_check" CHECK ("organizations"."billing_email" is null or char_length("organizations"."billing_email") between 3 and 254);