-- The delivery log (docs/decisions.md#delivery-log) and redelivery (docs/decisions.md#redelivery): each try records
-- its delivery, its outcome and a scrubbed excerpt of the answer; each event counts its deliveries.
ALTER TABLE "webhook_delivery_attempts" ADD COLUMN "delivery" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD COLUMN "outcome" text;--> statement-breakpoint
-- Tries made before: a 2xx delivered; the last try of an event that failed failed for good; any other was retried.
UPDATE "webhook_delivery_attempts" AS attempt
   SET "outcome" = CASE
     WHEN attempt."response_status" BETWEEN 200 AND 299 THEN 'delivered'
     WHEN event."status" = 'failed' AND attempt."attempt" = (
       SELECT max(other."attempt") FROM "webhook_delivery_attempts" AS other WHERE other."event_id" = attempt."event_id"
     ) THEN 'failed'
     ELSE 'retrying'
   END
  FROM "webhook_events" AS event
 WHERE event."id" = attempt."event_id";--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ALTER COLUMN "outcome" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD COLUMN "response_excerpt" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "deliveries" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_outcome_check" CHECK ("webhook_delivery_attempts"."outcome" in ('delivered', 'retrying', 'failed'));
