import type { Payment, PaymentChannel, PaymentMethod, PaymentMethodKind } from '@platform/db';
import { conflict, notFound, paymentFailed } from '@platform/errors';
import type { IdempotencyContext } from '@platform/idempotency';
import { formatKes, quote } from '@platform/pricing';
import { findUserEmail } from '../../accounts/index.js';
import { assertActivated } from '../../activation/index.js';
import { type AuditContext, recordAuditEvent } from '../../audit/index.js';
import { findActivePaymentMethod, PAYMENT_METHOD_NOT_FOUND } from '../payment-methods/index.js';
import { checkAmountLimit } from './amount-limits.js';
import { askProvider, outcomeUnknown } from './ask-provider.js';
import { chargeSavedCard } from './charge-saved-card.js';
import { checkDelayOf, confirmationDelayOf } from './check-delays.js';
import { beingConfirmed, earlierAttemptOf, startedByOf } from './earlier-attempts.js';
import { alarmEarlyUnmatchedMobileMoneySuccesses, applyEarlyMobileMoneyResults } from './mobile-money-results.js';
import { type PayIntent, readPayIntent } from './pay-request.js';
import { accountReferenceOf, newPaymentReference } from './reference.js';
import { insertPendingPayment, recordProviderAcceptance } from './repository.js';
import { assertTakesPayments } from './retired-organizations.js';
import type { PayBody, PaymentStarted } from './schemas.js';
import { bankTransferAnswer, startBankTransfer } from './start-bank-transfer.js';
import {
  type PaymentRequester,
  type PaymentStartContext,
  type PaymentToStart,
  paymentStarted,
} from './start-context.js';

/** Who asks for a payment, and the idempotency key of their request if it has one. */
interface PayRequest {
  organizationId: string;
  userId: string;
  idempotency: IdempotencyContext | undefined;
  audit: AuditContext;
}

export interface PaymentStartResult {
  answer: PaymentStarted;
  /** The answer of an earlier request with the same key, whose payment has succeeded since. */
  replayed: boolean;
}

/**
 * POST /v1/billing/pay. Everything about the request is checked before anything is written. The payment
 * is then recorded as pending, the provider is called outside any transaction, and its answer recorded:
 * the provider's handle on the payment when it took it, the end of the payment when it certainly did not,
 * and when its answer never came (it may have acted) the payment stays pending for the reconciliation job
 * while the client gets 503. A retry with the same idempotency key is checked against the payment the key
 * started first (earlier-attempts.ts), so it cannot pay twice.
 */
export async function startPayment(
  context: PaymentStartContext,
  request: PayRequest,
  body: PayBody,
): Promise<PaymentStartResult> {
  const { db } = context.ctx;
  const startedBy = startedByOf(request.idempotency);
  const requester: PaymentRequester = {
    organizationId: request.organizationId,
    userId: request.userId,
    audit: request.audit,
    ...(startedBy === undefined ? {} : { startedBy }),
  };
  const intent = readPayIntent(body);
  // A retry of a request whose answer was not stored (a 503) must not start a second payment.
  const earlier = await earlierAttemptOf(db, requester.organizationId, requester.startedBy, context.ctx.now());
  if (earlier.kind === 'pending' && earlier.payment.channel === 'bank_transfer') {
    // Nothing to confirm with a provider: the transfer waits for its payer, whose instructions are answered again.
    const invoice = await context.invoices.findInvoice(db, earlier.payment.id);
    if (invoice !== undefined) return { answer: bankTransferAnswer(earlier.payment, invoice), replayed: true };
  }
  if (earlier.kind === 'pending') throw beingConfirmed(earlier.payment, context.ctx.now());
  if (earlier.kind === 'succeeded') return { answer: successAnswerOf(earlier.payment), replayed: true };

  const savedMethod =
    intent.paymentMethodId === undefined
      ? undefined
      : await findActivePaymentMethod(db, requester.organizationId, intent.paymentMethodId);
  if (intent.method === 'saved_method' && savedMethod === undefined) throw notFound(PAYMENT_METHOD_NOT_FOUND);
  const channel: PaymentChannel = savedMethod?.type ?? channelOf(intent.method);

  const amount = amountOf(intent);
  checkAmountLimit(amount, channel, context.config.maxAmount, intent.subscription !== undefined);
  // A top-up credits the live wallet, locked until the organization is activated (docs/decisions.md#going-live); the
  // test wallet is topped up free by POST /v1/organizations/:id/wallets/test/top-ups.
  if (intent.purpose === 'wallet_topup') {
    await assertActivated(db, requester.organizationId, 'live wallet top-ups');
  }
  if (intent.subscription !== undefined) {
    // Whether the organization may buy one now is the subscriptions' rule (docs/decisions.md#subscription-purchases).
    await context.subscriptionPurchases.assertPurchasable(db, requester.organizationId, context.ctx.now());
  }
  const email = await findUserEmail(db, requester.userId);
  if (email === undefined) throw notFound('Profile not found');

  const start = { context, requester, intent, amount, email };
  const answer =
    channel === 'bank_transfer'
      ? await startBankTransfer(start)
      : channel === 'mobile_money'
        ? await startMobileMoney(start, savedMethod)
        : savedMethod !== undefined
          ? await chargeCard(start, savedMethod)
          : await startCardCheckout(start);
  return { answer, replayed: false };
}

/** What moves the money of a method other than a saved one (whose own type says it). */
function channelOf(method: PaymentMethodKind): PaymentChannel {
  return method === 'mobile_money' || method === 'bank_transfer' ? method : 'card';
}

/** What the request that started a payment answered once it had succeeded (for a retry with its key). */
function successAnswerOf(payment: Payment): PaymentStarted {
  const paid = `Payment of ${formatKes(payment.amount)} successful.`;
  return { success: true, message: paid, reference: payment.reference };
}

/** Top-ups pay what was asked; a subscription costs what the price list says, whatever the client sent. */
function amountOf(intent: PayIntent): number {
  if (intent.subscription !== undefined) return quote(intent.subscription).total;
  if (intent.amount === undefined) throw new Error('A wallet top-up without an amount passed validation');
  return intent.amount;
}

async function startCardCheckout(start: PaymentToStart): Promise<PaymentStarted> {
  const { context } = start;
  const card = context.providers.card;
  const payment = await recordPending(start, { channel: 'card', provider: card.name });
  const reply = await askProvider(
    context.ctx,
    payment,
    () =>
      card.startCheckout({
        reference: payment.reference,
        amount: payment.amount,
        email: start.email,
        returnUrl: context.config.returnUrl,
        metadata: {
          payment_reference: payment.reference,
          organization_id: payment.organizationId,
          purpose: payment.purpose,
        },
      }),
    // The transaction reference is ours; whether the transaction exists is looked up soon.
    { providerReference: payment.reference, confirmAfterMs: confirmationDelayOf(context.config) },
  );
  if (!reply.answered) throw outcomeUnknown(payment, reply.error);
  const checkout = reply.value;
  await recordProviderAcceptance(
    context.ctx.db,
    payment,
    { ...checkout, payload: { checkoutUrl: checkout.checkoutUrl } },
    context.ctx.now(),
  );
  return { success: true, checkoutUrl: checkout.checkoutUrl, reference: payment.reference };
}

async function startMobileMoney(
  start: PaymentToStart,
  savedMethod: PaymentMethod | undefined,
): Promise<PaymentStarted> {
  const { context } = start;
  const mobileMoney = context.providers.mobileMoney;
  const phone = start.intent.phone ?? savedMethod?.phone;
  if (phone === undefined || phone === null) throw new Error('An M-Pesa payment without a number passed validation');
  const payment = await recordPending(start, {
    channel: 'mobile_money',
    provider: mobileMoney.name,
    phone,
    paymentMethodId: savedMethod?.id ?? null,
  });
  const reply = await askProvider(
    context.ctx,
    payment,
    () =>
      mobileMoney.requestPayment({
        reference: payment.reference,
        accountReference: payment.accountReference ?? accountReferenceOf(payment.reference),
        amount: payment.amount,
        phone,
        description: payment.purpose === 'wallet_topup' ? 'Wallet top-up' : 'Subscription',
      }),
    // Without a CheckoutRequestID nothing can be queried: the payment is closed at its first check, once
    // the prompt (about a minute) can no longer be answered.
    { confirmAfterMs: context.config.reconciliation.mobileMoneyCheckAfterMs },
  );
  if (!reply.answered) {
    await alarmEarlyUnmatchedMobileMoneySuccesses(context.ctx, mobileMoney.results, payment);
    throw outcomeUnknown(payment, reply.error);
  }
  const prompt = reply.value;
  await recordProviderAcceptance(context.ctx.db, payment, { ...prompt, payload: prompt }, context.ctx.now());
  await applyEarlyMobileMoneyResults(context.ctx, mobileMoney.results, payment, prompt.providerReference);
  return {
    success: true,
    message: `Check your phone (0${phone.slice(3)}) and enter your M-Pesa PIN to pay ${formatKes(payment.amount)}.`,
    reference: payment.reference,
  };
}

async function chargeCard(start: PaymentToStart, card: PaymentMethod): Promise<PaymentStarted> {
  const { context } = start;
  const provider = context.providers.card;
  if (card.provider !== provider.name || card.authorizationCode === null) {
    throw conflict(
      'This card was saved with another card provider and can no longer be charged; pay by card to save it again',
    );
  }
  const payment = await recordPending(start, { channel: 'card', provider: provider.name, paymentMethodId: card.id });
  const charged = await chargeSavedCard(
    context.ctx,
    provider,
    payment,
    { authorizationCode: card.authorizationCode, email: card.customerEmail ?? start.email },
    { confirmAfterMs: confirmationDelayOf(context.config) },
  );
  // The charge may have been made: 503, and the payment is confirmed by reconciliation (or the webhook).
  if (!charged.answered) throw outcomeUnknown(charged.payment, charged.error);
  const settled = charged.payment;
  if (settled.status === 'succeeded') return successAnswerOf(settled);
  if (settled.status === 'pending') {
    return {
      success: true,
      message: 'The card payment is being confirmed; GET /v1/billing/payments/:reference shows the outcome.',
      reference: settled.reference,
    };
  }
  throw paymentFailed(`The card payment did not go through: ${settled.failureReason ?? settled.status}`);
}

/**
 * Inserts the payment as pending, with when the reconciliation job should first ask about it, and records its start
 * in the audit log, in one transaction; 409 when the organization was retired meanwhile.
 */
function recordPending(
  start: PaymentToStart,
  details: {
    channel: PaymentChannel;
    provider: Payment['provider'];
    phone?: string;
    paymentMethodId?: string | null;
  },
): Promise<Payment> {
  const { context, intent, requester } = start;
  const now = context.ctx.now();
  const reference = newPaymentReference();
  const firstCheckAfterMs = checkDelayOf(context.config, details.channel, intent.method === 'saved_method');
  return context.ctx.db.transaction(async (tx) => {
    // A retirement that committed since the membership check is seen here (docs/decisions.md#retired-organizations-take-no-money).
    await assertTakesPayments(tx, requester.organizationId);
    const payment = await insertPendingPayment(
      tx,
      {
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
      },
      requester.startedBy,
    );
    await recordAuditEvent(tx, requester.audit, paymentStarted(payment));
    return payment;
  });
}
