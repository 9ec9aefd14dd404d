import { type Payment, type PaymentChannel, type PaymentMethod, users } from '@platform/db';
import { conflict, notFound, paymentFailed } from '@platform/errors';
import { quote } from '@platform/pricing';
import { eq } from 'drizzle-orm';
import type { PaymentsConfig } from '../config.js';
import { formatKes } from '../html.js';
import { findActivePaymentMethod } from '../payment-methods/repository.js';
import { PAYMENT_METHOD_NOT_FOUND } from '../payment-methods/routes.js';
import { applyEarlyStkCallbacks } from '../providers/daraja/callbacks.js';
import type { PaymentProviders } from '../providers/from-config.js';
import { askProvider } from './ask-provider.js';
import { chargeSavedCardPayment } from './charge-saved-card.js';
import { readPayIntent, type PayIntent } from './pay-request.js';
import { checkAmountLimit, ensureNoActiveSubscription } from './purchase-rules.js';
import { accountReferenceOf, newPaymentReference } from './reference.js';
import { createPendingPayment, recordProviderAcceptance } from './repository.js';
import type { PayBody, PaymentStarted } from './schemas.js';
import type { SettlementContext } from './settle.js';

export interface PaymentStartDeps {
  ctx: SettlementContext;
  providers: PaymentProviders;
  config: PaymentsConfig;
}

export interface PaymentRequester {
  organizationId: string;
  userId: string;
}

/**
 * POST /v1/billing/pay. Everything about the request is checked before anything is written. The payment
 * is then recorded as pending, the provider is called outside any transaction, and its answer recorded:
 * the provider's handle on the payment when it took it, or the end of the payment when it did not.
 */
export async function startPayment(deps: PaymentStartDeps, requester: PaymentRequester, body: PayBody): Promise<PaymentStarted> {
  const { db } = deps.ctx;
  const intent = readPayIntent(body);
  const savedMethod =
    intent.paymentMethodId === undefined
      ? undefined
      : await findActivePaymentMethod(db, requester.organizationId, intent.paymentMethodId);
  if (intent.method === 'saved_method' && savedMethod === undefined) throw notFound(PAYMENT_METHOD_NOT_FOUND);
  const channel: PaymentChannel = savedMethod?.type ?? (intent.method === 'card' ? 'card' : 'mobile_money');

  const amount = amountOf(intent);
  checkAmountLimit(amount, channel, deps.config.maxAmount, intent.subscription !== undefined);
  if (intent.subscription !== undefined) await ensureNoActiveSubscription(db, requester.organizationId, deps.ctx.now());
  const [payer] = await db.select({ email: users.email }).from(users).where(eq(users.id, requester.userId));
  if (payer === undefined) throw notFound('Profile not found');

  const start = { deps, requester, intent, amount, email: payer.email };
  if (channel === 'mobile_money') return startMobileMoney(start, savedMethod);
  if (savedMethod !== undefined) return chargeSavedCard(start, savedMethod);
  return startCardCheckout(start);
}

interface Start {
  deps: PaymentStartDeps;
  requester: PaymentRequester;
  intent: PayIntent;
  amount: number;
  email: string;
}

/** Top-ups pay what was asked; a subscription costs what the price list says, whatever the client sent. */
function amountOf(intent: PayIntent): number {
  if (intent.subscription !== undefined) return quote(intent.subscription).total;
  if (intent.amount === undefined) throw new Error('A wallet top-up without an amount passed validation');
  return intent.amount;
}

async function startCardCheckout(start: Start): Promise<PaymentStarted> {
  const { deps } = start;
  const card = deps.providers.card;
  const payment = await recordPending(start, { channel: 'card', provider: card.name });
  const checkout = await askProvider(deps.ctx, payment, () =>
    card.startCheckout({
      reference: payment.reference,
      amount: payment.amount,
      email: start.email,
      returnUrl: deps.config.returnUrl,
      metadata: { payment_reference: payment.reference, organization_id: payment.organizationId, purpose: payment.purpose },
    }),
  );
  await recordProviderAcceptance(
    deps.ctx.db,
    payment,
    { ...checkout, payload: { checkoutUrl: checkout.checkoutUrl } },
    deps.ctx.now(),
  );
  return { success: true, checkoutUrl: checkout.checkoutUrl, reference: payment.reference };
}

async function startMobileMoney(start: Start, savedMethod: PaymentMethod | undefined): Promise<PaymentStarted> {
  const { deps } = start;
  const mobileMoney = deps.providers.mobileMoney;
  const phone = start.intent.phone ?? savedMethod?.phone;
  if (phone === undefined || phone === null) throw new Error('An M-Pesa payment without a number passed validation');
  const payment = await recordPending(start, {
    channel: 'mobile_money',
    provider: mobileMoney.name,
    phone,
    paymentMethodId: savedMethod?.id ?? null,
  });
  const prompt = await askProvider(deps.ctx, payment, () =>
    mobileMoney.requestPayment({
      reference: payment.reference,
      accountReference: payment.accountReference ?? accountReferenceOf(payment.reference),
      amount: payment.amount,
      phone,
      description: payment.purpose === 'wallet_topup' ? 'Wallet top-up' : 'Subscription',
    }),
  );
  await recordProviderAcceptance(deps.ctx.db, payment, { ...prompt, payload: prompt }, deps.ctx.now());
  await applyEarlyStkCallbacks(deps.ctx, payment, prompt.providerReference);
  return {
    success: true,
    message: `Check your phone (0${phone.slice(3)}) and enter your M-Pesa PIN to pay ${formatKes(payment.amount)}.`,
    reference: payment.reference,
  };
}

async function chargeSavedCard(start: Start, card: PaymentMethod): Promise<PaymentStarted> {
  const { deps } = start;
  const provider = deps.providers.card;
  if (card.provider !== provider.name || card.authorizationCode === null) {
    throw conflict('This card was saved with another card provider and can no longer be charged; pay by card to save it again');
  }
  const payment = await recordPending(start, { channel: 'card', provider: provider.name, paymentMethodId: card.id });
  const settled = await chargeSavedCardPayment(deps.ctx, provider, payment, {
    authorizationCode: card.authorizationCode,
    email: card.customerEmail ?? start.email,
  });
  if (settled.status === 'succeeded') {
    return { success: true, message: `Payment of ${formatKes(settled.amount)} successful.`, reference: settled.reference };
  }
  if (settled.status === 'pending') {
    return {
      success: true,
      message: 'The card payment is being confirmed; GET /v1/billing/payments/:reference shows the outcome.',
      reference: settled.reference,
    };
  }
  throw paymentFailed(`The card payment did not go through: ${settled.failureReason ?? settled.status}`);
}

/** Inserts the payment as pending, with when the reconciliation job should first ask about it. */
function recordPending(
  start: Start,
  details: {
    channel: PaymentChannel;
    provider: Payment['provider'];
    phone?: string;
    paymentMethodId?: string | null;
  },
): Promise<Payment> {
  const { deps, intent, requester } = start;
  const now = deps.ctx.now();
  const reference = newPaymentReference();
  const firstCheckAfterMs = checkDelayOf(deps.config, details.channel, intent.method === 'saved_method');
  return createPendingPayment(deps.ctx.db, {
    reference,
    organizationId: requester.organizationId,
    userId: requester.userId,
    method: intent.method,
    channel: details.channel,
    purpose: intent.purpose,
    provider: details.provider,
    amount: start.amount,
    phone: details.phone ?? null,
    paymentMethodId: details.paymentMethodId ?? null,
    plan: intent.subscription?.plan ?? null,
    seats: intent.subscription?.seats ?? null,
    billingCycle: intent.subscription?.cycle ?? null,
    accountReference: details.channel === 'mobile_money' ? accountReferenceOf(reference) : null,
    nextCheckAt: new Date(now.getTime() + firstCheckAfterMs),
    createdAt: now,
  });
}

/**
 * M-Pesa prompts are checked once the customer had time to answer; card checkouts when they run out of
 * time (the webhook normally settles them first); saved-card charges answer at once, so one still
 * pending is checked soon after.
 */
export function checkDelayOf(config: PaymentsConfig, channel: PaymentChannel, saved: boolean): number {
  if (channel === 'mobile_money') return config.reconciliation.mobileMoneyCheckAfterMs;
  return saved ? 2 * config.providerTimeoutMs : config.reconciliation.cardCheckoutExpireAfterMs;
}
