ALTER TABLE "credit_balance_entries" DROP CONSTRAINT "credit_balance_entries_reason_check";--> statement-breakpoint
ALTER TABLE "bank_transfer_confirmations" DROP CONSTRAINT "bank_transfer_confirmations_outcome_check";--> statement-breakpoint
ALTER TABLE "bank_transfer_confirmations" DROP CONSTRAINT "bank_transfer_confirmations_amounts_check";--> statement-breakpoint
ALTER TABLE "payment_events" DROP CONSTRAINT "payment_events_from_status_check";--> statement-breakpoint
ALTER TABLE "payment_events" DROP CONSTRAINT "payment_events_to_status_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_status_check";--> statement-breakpoint
ALTER TABLE "bank_transfer_confirmations" ADD COLUMN "received_before" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_transfer_confirmations_bank_reference_unique" ON "bank_transfer_confirmations" USING btree ("bank_reference") WHERE "bank_transfer_confirmations"."outcome" <> 'amount_mismatch';--> statement-breakpoint
CREATE INDEX "payments_refund_due_idx" ON "payments" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "payments"."status" = 'refund_due';--> statement-breakpoint
ALTER TABLE "credit_balance_entries" ADD CONSTRAINT "credit_balance_entries_reason_check" CHECK ("credit_balance_entries"."reason" in ('downgrade', 'duplicate_purchase', 'unapplied_charge', 'upgrade', 'renewal', 'transfer_excess'));--> statement-breakpoint
ALTER TABLE "bank_transfer_confirmations" ADD CONSTRAINT "bank_transfer_confirmations_outcome_check" CHECK ("bank_transfer_confirmations"."outcome" in ('applied', 'partial', 'refund_due', 'amount_mismatch'));--> statement-breakpoint
ALTER TABLE "bank_transfer_confirmations" ADD CONSTRAINT "bank_transfer_confirmations_amounts_check" CHECK ("bank_transfer_confirmations"."amount_received" > 0 and "bank_transfer_confirmations"."amount_due" > 0 and "bank_transfer_confirmations"."received_before" >= 0 and (
        ("bank_transfer_confirmations"."outcome" = 'applied' and "bank_transfer_confirmations"."received_before" < "bank_transfer_confirmations"."amount_due" and "bank_transfer_confirmations"."received_before" + "bank_transfer_confirmations"."amount_received" >= "bank_transfer_confirmations"."amount_due")
        or ("bank_transfer_confirmations"."outcome" = 'partial' and "bank_transfer_confirmations"."received_before" + "bank_transfer_confirmations"."amount_received" < "bank_transfer_confirmations"."amount_due")
        or "bank_transfer_confirmations"."outcome" = 'refund_due'
        or ("bank_transfer_confirmations"."outcome" = 'amount_mismatch' and "bank_transfer_confirmations"."received_before" = 0 and "bank_transfer_confirmations"."amount_received" <> "bank_transfer_confirmations"."amount_due")));--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_from_status_check" CHECK ("payment_events"."from_status" is null or "payment_events"."from_status" in ('pending', 'succeeded', 'failed', 'cancelled', 'expired', 'refund_due'));--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_to_status_check" CHECK ("payment_events"."to_status" is null or "payment_events"."to_status" in ('pending', 'succeeded', 'failed', 'cancelled', 'expired', 'refund_due'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('pending', 'succeeded', 'failed', 'cancelled', 'expired', 'refund_due'));