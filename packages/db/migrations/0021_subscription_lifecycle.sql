-- Subscription lifecycle (docs/decisions.md#subscription-cancellation, #renewal-retries, #scheduled-downgrades,
-- #renewal-reminders): cancel at period end, retries on days 1, 3 and 5 after a failed renewal, downgrades applied
-- at the period end, and reminders recorded once per renewal.
CREATE TABLE "mail_subscription_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"renews_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_subscription_reminders_kind_check" CHECK ("mail_subscription_reminders"."kind" in ('7_days', '1_day'))
);
--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "canceled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "past_due_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "renewal_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "scheduled_plan" text;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "scheduled_seats" integer;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "scheduled_billing_cycle" text;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD COLUMN "scheduled_by_user_id" text;--> statement-breakpoint
ALTER TABLE "mail_subscription_reminders" ADD CONSTRAINT "mail_subscription_reminders_subscription_id_mail_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."mail_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_subscription_reminders_once" ON "mail_subscription_reminders" USING btree ("subscription_id","renews_at","kind");--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_scheduled_by_user_id_users_id_fk" FOREIGN KEY ("scheduled_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_canceled_at_check" CHECK (not "mail_subscriptions"."cancel_at_period_end" or "mail_subscriptions"."canceled_at" is not null);--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_past_due_since_check" CHECK ("mail_subscriptions"."past_due_since" is null or "mail_subscriptions"."status" = 'past_due');--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_renewal_failures_check" CHECK ("mail_subscriptions"."renewal_failures" >= 0);--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_scheduled_check" CHECK (("mail_subscriptions"."scheduled_plan" is null) = ("mail_subscriptions"."scheduled_seats" is null) and ("mail_subscriptions"."scheduled_plan" is null) = ("mail_subscriptions"."scheduled_billing_cycle" is null) and ("mail_subscriptions"."scheduled_plan" is null) = ("mail_subscriptions"."scheduled_at" is null));--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_scheduled_plan_check" CHECK ("mail_subscriptions"."scheduled_plan" in ('core', 'growth', 'scale'));--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_scheduled_billing_cycle_check" CHECK ("mail_subscriptions"."scheduled_billing_cycle" in ('monthly', 'yearly'));--> statement-breakpoint
ALTER TABLE "mail_subscriptions" ADD CONSTRAINT "mail_subscriptions_scheduled_seats_check" CHECK ("mail_subscriptions"."scheduled_seats" between 1 and 1000000);--> statement-breakpoint
-- A subscription already past_due failed its renewal at the end of its period: its retries count from there, as one
-- failure so far.
UPDATE "mail_subscriptions" SET "past_due_since" = "current_period_end", "renewal_failures" = 1 WHERE "status" = 'past_due';
