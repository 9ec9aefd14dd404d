ALTER TABLE "receipts" ADD COLUMN "mpesa_receipt_number" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "mpesa_receipt_number" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_mpesa_receipt_number_check" CHECK ("receipts"."mpesa_receipt_number" is null or "receipts"."mpesa_receipt_number" ~ '^[A-Z0-9]{10}$');--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_mpesa_receipt_number_check" CHECK ("payments"."mpesa_receipt_number" is null or "payments"."mpesa_receipt_number" ~ '^[A-Z0-9]{10}$');