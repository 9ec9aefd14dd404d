import { billingCycles, mailPlans, mailSubscriptionStatuses } from '@platform/db';
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
    kind: oneOf(['upgrade', 'downgrade', 'change'] as const, {
      description: 'upgrade: costs more; downgrade: leaves a credit; change: costs the same.',
    }),
    net: Type.Integer({ description: 'The prorated price of the change before credit; negative for a downgrade.' }),
    creditApplied: Type.Integer({ description: 'What the credit balance pays of it.' }),
    creditAdded: Type.Integer({ description: 'What a downgrade adds to the credit balance.' }),
    creditBalance: Type.Integer({ description: 'The credit balance now.' }),
    daysInPeriod: Type.Integer({ description: 'Days in the current period.' }),
    daysRemaining: Type.Integer({ description: 'Days from today (inclusive) to the end of the current period.' }),
    cycleChanged: Type.Boolean({ description: 'A new billing cycle starts a new period today.' }),
    newPeriod: Type.Object({ start: day('First day.'), end: day('The day it renews (exclusive end).') }),
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
    plan: oneOf(mailPlans),
    seats: Type.Integer(),
    billingCycle: oneOf(billingCycles),
    status: oneOf(mailSubscriptionStatuses, {
      description:
        'active; past_due (a renewal was not paid: the plan still applies while it is retried); canceled; expired.',
    }),
    currentPeriodStart: Type.String({ format: 'date-time' }),
    currentPeriodEnd: Type.String({ format: 'date-time' }),
    renewsAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When the saved card is next charged for a renewal (or a past_due renewal retried); null when it will not renew or a renewal is being charged.',
    }),
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
    paymentMethodId: Type.Union([Type.String(), Type.Null()], { description: 'The saved card renewals charge.' }),
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

export const subscriptionSharedSchemas = [
  UpgradePreviewSchema,
  UpgradePreviewResponseSchema,
  MailSubscriptionSchema,
  MailSubscriptionResponseSchema,
];
