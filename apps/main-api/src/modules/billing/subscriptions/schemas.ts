import { billingCycles, mailPlans, mailSubscriptionStatuses } from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { MAX_SEATS, MIN_SEATS } from '@platform/pricing';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../../shared/schema-ref.js';
import { oneOf } from '../payments/index.js';

const newTerms = {
  newPlan: oneOf(mailPlans, { description: 'The plan after the change.' }),
  newSeats: Type.Integer({
    minimum: MIN_SEATS,
    maximum: MAX_SEATS,
    description: 'The number of mailboxes after the change.',
  }),
  newCycle: oneOf(billingCycles, {
    description: 'The billing cycle after the change; a new cycle starts a new period today.',
  }),
};

/** GET /v1/billing/upgrade/preview: all three required (spec 4.8). Query values arrive as strings; newSeats is read as an integer. */
export const UpgradePreviewQuerySchema = Type.Object(newTerms);

/** POST /v1/billing/upgrade (spec 4.9). Unknown fields are refused, as in every billing body. */
export const UpgradeBodySchema = Type.Object(
  {
    ...newTerms,
    paymentMethodId: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          "Required when amountDueToday is above 0: one of the organization's saved cards (not an M-Pesa number).",
      }),
    ),
  },
  { additionalProperties: false },
);

const day = (description: string) => Type.String({ format: 'date', description });

const UpgradePreviewSchema = Type.Object(
  {
    amountDueToday: Type.Integer({
      description:
        'Whole KES charged to the card now, after the credit balance; 0 when nothing is charged (e.g. a downgrade).',
    }),
    kind: stringEnum(['upgrade', 'downgrade', 'change'] as const, {
      description:
        'upgrade: costs more for the rest of the period; downgrade: priced lower (a negative prorated price), so it ' +
        'waits for the period end; change: costs the same, or the current terms asked for while a change is scheduled.',
    }),
    takesEffect: stringEnum(['now', 'period_end'] as const, {
      description:
        'now: POST /v1/billing/upgrade applies it at once (charging amountDueToday); period_end: a downgrade, scheduled ' +
        'for the end of the current period and applied by the renewal at newPrice, nothing charged or credited today.',
    }),
    cancelsScheduledChange: Type.Boolean({
      description:
        'A change is scheduled and this drops it: the current terms cancel it, a change made now or another downgrade replaces it.',
    }),
    net: Type.Integer({
      description: 'The prorated price of the change before credit; 0 for a downgrade (it earns no credit).',
    }),
    creditApplied: Type.Integer({ description: 'What the credit balance pays of it.' }),
    creditAdded: Type.Integer({
      description: 'Always 0: a downgrade takes effect at the period end and adds nothing to the credit balance.',
    }),
    creditBalance: Type.Integer({ description: 'The credit balance now.' }),
    daysInPeriod: Type.Integer({ description: 'Days in the current period.' }),
    daysRemaining: Type.Integer({ description: 'Days from today (inclusive) to the end of the current period.' }),
    cycleChanged: Type.Boolean({ description: 'A new billing cycle starts a new period today.' }),
    newPeriod: Type.Object(
      { start: day('First day.'), end: day('The day it renews (exclusive end).') },
      {
        description:
          'The period the new terms start with: the current one, a new one from today when the cycle changes, or, for ' +
          'a downgrade, the one after the current period.',
      },
    ),
    newPrice: Type.Integer({ description: 'What one period of the new terms costs, whole KES.' }),
  },
  { $id: 'UpgradePreview', additionalProperties: false },
);

export type UpgradePreview = Static<typeof UpgradePreviewSchema>;

export const UpgradePreviewResponseSchema = Type.Object(
  { success: Type.Literal(true), data: ref(UpgradePreviewSchema) },
  { $id: 'UpgradePreviewResponse' },
);

const MailSubscriptionSchema = Type.Object(
  {
    plan: stringEnum(mailPlans),
    seats: Type.Integer(),
    billingCycle: stringEnum(billingCycles),
    status: stringEnum(mailSubscriptionStatuses, {
      description:
        'active; past_due (a renewal was not paid: the plan still applies while it is retried on days 1, 3 and 5 ' +
        'after the first failure); canceled (ended as asked, at the period end); expired (ended unpaid, after the last retry).',
    }),
    currentPeriodStart: Type.String({ format: 'date-time' }),
    currentPeriodEnd: Type.String({ format: 'date-time' }),
    renewsAt: nullable(Type.String({ format: 'date-time' }), {
      description:
        'When the saved card is next charged for a renewal (or a past_due renewal retried); null when it will not ' +
        'renew (ended, or set to cancel) or a renewal is being charged.',
    }),
    cancelAtPeriodEnd: Type.Boolean({
      description:
        'Set by POST /v1/billing/subscription/cancel: the plan stays until currentPeriodEnd (a past_due one: until its ' +
        'next retry), then the subscription ends as canceled and nothing more is charged. Cleared by resume.',
    }),
    canceledAt: nullable(Type.String({ format: 'date-time' }), {
      description: 'When the cancel was asked for; null when it is not set to cancel (and did not end by one).',
    }),
    endedAt: nullable(Type.String({ format: 'date-time' }), {
      description: 'When it ended (canceled or expired); null while it runs.',
    }),
    scheduledChange: nullable(
      Type.Object(
        {
          plan: stringEnum(mailPlans),
          seats: Type.Integer(),
          billingCycle: stringEnum(billingCycles),
          effectiveAt: Type.String({
            format: 'date-time',
            description: 'The renewal that applies it: currentPeriodEnd.',
          }),
          price: Type.Integer({
            description: 'What one period of these terms costs, whole KES: what that renewal charges.',
          }),
          requestedAt: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'A downgrade asked for during the period, applied by the renewal at its end. Asking POST /v1/billing/upgrade ' +
          'for the current terms cancels it; an upgrade made now replaces it. null when none.',
      },
    ),
    price: Type.Object(
      {
        tier: Type.String({ description: 'The seat-count tier, e.g. 51-500.' }),
        pricePerSeatMonthly: Type.Integer(),
        monthlyTotal: Type.Integer(),
        total: Type.Integer({ description: 'What one billing period costs (a year is 10 months).' }),
      },
      { description: 'From @platform/pricing quote(), whole KES.' },
    ),
    creditBalance: Type.Integer({ description: 'Whole KES, used first by upgrades and renewals; never paid out.' }),
    paymentMethodId: nullable(Type.String(), { description: 'The saved card renewals charge.' }),
    changeInProgress: Type.Boolean({ description: 'A change or renewal is being charged right now.' }),
  },
  { $id: 'MailSubscription', additionalProperties: false },
);

export type MailSubscriptionView = Static<typeof MailSubscriptionSchema>;

export const MailSubscriptionResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Union([ref(MailSubscriptionSchema), Type.Null()], {
      description: 'null: the organization never had one.',
    }),
  },
  { $id: 'MailSubscriptionResponse' },
);

/** What cancel and resume answer: the subscription as GET /v1/billing/subscription shows it, and a sentence. */
export const MailSubscriptionUpdatedResponseSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: ref(MailSubscriptionSchema) },
  { $id: 'MailSubscriptionUpdatedResponse' },
);

export const subscriptionSharedSchemas = [
  UpgradePreviewSchema,
  UpgradePreviewResponseSchema,
  MailSubscriptionSchema,
  MailSubscriptionResponseSchema,
  MailSubscriptionUpdatedResponseSchema,
];
