import type {
  Database,
  DatabaseExecutor,
  Payment,
  PaymentChannel,
  PaymentMethod,
  PaymentMethodKind,
  PaymentProvider,
  PaymentPurpose,
  PaymentStatus,
} from '@platform/db';
import { conflict, notFound, paymentFailed } from '@platform/errors';
import type { IdempotencyContext } from '@platform/idempotency';
import { decodeCursor, type PagePosition, pageOf } from '@platform/pagination';
import { formatKes, quote } from '@platform/pricing';
import { type AuditContext, recordAuditEvent } from '../../audit/index.js';
import type { PaymentsConfig } from '../config.js';
import { findActivePaymentMethod, PAYMENT_METHOD_NOT_FOUND } from '../payment-methods/index.js';
import { askProvider, outcomeUnknown } from './ask-provider.js';
import { beingConfirmed, earlierAttemptOf, startedByOf } from './attempts.js';
import { bankTransferAnswer, startBankTransfer } from './bank-transfer.js';
import { chargeSavedCard } from './charge-saved-card.js';
import { readPaymentPeriod } from './list-period.js';
import { alarmEarlyUnmatchedMobileMoneySuccesses, applyEarlyMobileMoneyResults } from './mobile-money-results.js';
import { type PayIntent, readPayIntent } from './pay-request.js';
import { checkAmountLimit, ensureNoActiveSubscription } from './purchase-rules.js';
import { accountReferenceOf, isPaymentReference, newPaymentReference } from './reference.js';
import {
  findOrganizationPayment,
  findPayment,
  findUserEmail,
  insertPendingPayment,
  listPaymentRows,
  type PaymentListQuery,
  recordProviderAcceptance,
} from './repository.js';
import { assertTakesPayments } from './retired-organizations.js';
import type { PayBody, PaymentStarted, PaymentView } from './schemas.js';
import { type PaymentRequester, type PaymentStartDeps, paymentStarted, type Start } from './start.js';
import { paymentViewOf, toPaymentView } from './view.js';

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
 * started first (attempts.ts), so it cannot pay twice.
 */
export async function startPayment(
  deps: PaymentStartDeps,
  request: PayRequest,
  body: PayBody,
): Promise<PaymentStartResult> {
  const { db } = deps.ctx;
  const startedBy = startedByOf(request.idempotency);
  const requester: PaymentRequester = {
    organizationId: request.organizationId,
    userId: request.userId,
    audit: request.audit,
    ...(startedBy === undefined ? {} : { startedBy }),
  };
  const intent = readPayIntent(body);
  // A retry of a request whose answer was not stored (a 503) must not start a second payment.
  const earlier = await earlierAttemptOf(db, requester.organizationId, requester.startedBy, deps.ctx.now());
  if (earlier.kind === 'pending' && earlier.payment.channel === 'bank_transfer') {
    // Nothing to confirm with a provider: the transfer waits for its payer, whose instructions are answered again.
    const invoice = await deps.invoices.findInvoice(db, earlier.payment.id);
    if (invoice !== undefined) return { answer: bankTransferAnswer(earlier.payment, invoice), replayed: true };
  }
  if (earlier.kind === 'pending') throw beingConfirmed(earlier.payment, deps.ctx.now());
  if (earlier.kind === 'succeeded') return { answer: successAnswerOf(earlier.payment), replayed: true };

  const savedMethod =
    intent.paymentMethodId === undefined
      ? undefined
      : await findActivePaymentMethod(db, requester.organizationId, intent.paymentMethodId);
  if (intent.method === 'saved_method' && savedMethod === undefined) throw notFound(PAYMENT_METHOD_NOT_FOUND);
  const channel: PaymentChannel = savedMethod?.type ?? channelOf(intent.method);

  const amount = amountOf(intent);
  checkAmountLimit(amount, channel, deps.config.maxAmount, intent.subscription !== undefined);
  if (intent.subscription !== undefined) await ensureNoActiveSubscription(db, requester.organizationId, deps.ctx.now());
  const email = await findUserEmail(db, requester.userId);
  if (email === undefined) throw notFound('Profile not found');

  const start = { deps, requester, intent, amount, email };
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

const PAYMENT_NOT_FOUND = 'Payment not found';

/**
 * GET /v1/billing/payments/:reference: one of the organization's payments. Another organization's payment,
 * an unknown and a malformed reference are the same 404.
 */
export async function organizationPaymentView(
  db: Database,
  organizationId: string,
  reference: string,
): Promise<PaymentView> {
  const found = isPaymentReference(reference)
    ? await findOrganizationPayment(db, organizationId, reference)
    : undefined;
  if (found === undefined) throw notFound(PAYMENT_NOT_FOUND);
  return toPaymentView(found.payment, found);
}

/** Which of the organization's payments a list holds; `from` and `to` as the client wrote them (list-period.ts). */
export interface PaymentFilter {
  status: PaymentStatus | undefined;
  method: PaymentMethodKind | undefined;
  purpose: PaymentPurpose | undefined;
  from: string | undefined;
  to: string | undefined;
}

/**
 * GET /v1/billing/payments: a page of the organization's payments that match, newest first, each as
 * GET /v1/billing/payments/:reference answers it, with the cursor of the next page (null on the last). 400 for a
 * `from` or `to` of neither form, an empty period, or a cursor this API did not return.
 */
export async function listPayments(
  db: Database,
  organizationId: string,
  filter: PaymentFilter & { limit: number; cursor: string | undefined },
): Promise<{ payments: PaymentView[]; nextCursor: string | null }> {
  const query = listQueryOf(organizationId, filter);
  const after = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor);
  const rows = await listPaymentRows(db, { ...query, after, limit: filter.limit + 1 });
  const { page, nextCursor } = pageOf(rows, filter.limit, (row) => ({ createdAt: row.position, id: row.id }));
  return { payments: page.map((row) => paymentViewOf(row.fields)), nextCursor };
}

/** How many payments an export reads at a time. */
const EXPORT_PAGE_SIZE = 500;

/**
 * Every payment of the organization that matches, newest first (after the cursor's payment, when there is one), a
 * page at a time: for the CSV export, which writes each page as it comes instead of holding them all. The filter is
 * checked (400) before the first page is read.
 */
async function* paymentsMatching(
  db: Database,
  organizationId: string,
  filter: PaymentFilter & { cursor: string | undefined },
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<PaymentView[]> {
  const query = listQueryOf(organizationId, filter);
  let after: PagePosition | undefined = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor);
  for (;;) {
    const rows = await listPaymentRows(db, { ...query, after, limit: pageSize });
    if (rows.length > 0) yield rows.map((row) => paymentViewOf(row.fields));
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageSize) return;
    after = { createdAt: last.position, id: last.id };
  }
}

/**
 * The CSV export's pages: the filter is checked and the first page read before this returns, so a bad filter (400) or
 * an unreachable database (503) is answered as any error is, before the export starts.
 */
export async function paymentExport(
  db: Database,
  organizationId: string,
  filter: PaymentFilter & { cursor: string | undefined },
): Promise<AsyncIterable<PaymentView[]>> {
  const pages = paymentsMatching(db, organizationId, filter);
  const first = await pages.next();
  return (async function* () {
    if (first.done !== true) yield first.value;
    yield* pages;
  })();
}

function listQueryOf(organizationId: string, filter: PaymentFilter): Omit<PaymentListQuery, 'after' | 'limit'> {
  const { from, to } = readPaymentPeriod(filter);
  return { organizationId, status: filter.status, method: filter.method, purpose: filter.purpose, from, to };
}

/**
 * A payment by its reference (of `provider`'s, when given), for the public pages that name one: anything but
 * a PAY- reference (a NUL byte, say) is no payment, and never reaches the database.
 */
export async function paymentByReference(
  db: DatabaseExecutor,
  reference: string,
  provider?: PaymentProvider,
): Promise<Payment | undefined> {
  if (!isPaymentReference(reference)) return undefined;
  return findPayment(db, provider === undefined ? { reference } : { reference, provider });
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

async function startCardCheckout(start: Start): Promise<PaymentStarted> {
  const { deps } = start;
  const card = deps.providers.card;
  const payment = await recordPending(start, { channel: 'card', provider: card.name });
  const reply = await askProvider(
    deps.ctx,
    payment,
    () =>
      card.startCheckout({
        reference: payment.reference,
        amount: payment.amount,
        email: start.email,
        returnUrl: deps.config.returnUrl,
        metadata: {
          payment_reference: payment.reference,
          organization_id: payment.organizationId,
          purpose: payment.purpose,
        },
      }),
    // The transaction reference is ours; whether the transaction exists is looked up soon.
    { providerReference: payment.reference, confirmAfterMs: confirmationDelayOf(deps.config) },
  );
  if (!reply.answered) throw outcomeUnknown(payment, reply.error);
  const checkout = reply.value;
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
  const reply = await askProvider(
    deps.ctx,
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
    { confirmAfterMs: deps.config.reconciliation.mobileMoneyCheckAfterMs },
  );
  if (!reply.answered) {
    await alarmEarlyUnmatchedMobileMoneySuccesses(deps.ctx, mobileMoney.results, payment);
    throw outcomeUnknown(payment, reply.error);
  }
  const prompt = reply.value;
  await recordProviderAcceptance(deps.ctx.db, payment, { ...prompt, payload: prompt }, deps.ctx.now());
  await applyEarlyMobileMoneyResults(deps.ctx, mobileMoney.results, payment, prompt.providerReference);
  return {
    success: true,
    message: `Check your phone (0${phone.slice(3)}) and enter your M-Pesa PIN to pay ${formatKes(payment.amount)}.`,
    reference: payment.reference,
  };
}

async function chargeCard(start: Start, card: PaymentMethod): Promise<PaymentStarted> {
  const { deps } = start;
  const provider = deps.providers.card;
  if (card.provider !== provider.name || card.authorizationCode === null) {
    throw conflict(
      'This card was saved with another card provider and can no longer be charged; pay by card to save it again',
    );
  }
  const payment = await recordPending(start, { channel: 'card', provider: provider.name, paymentMethodId: card.id });
  const charged = await chargeSavedCard(
    deps.ctx,
    provider,
    payment,
    { authorizationCode: card.authorizationCode, email: card.customerEmail ?? start.email },
    { confirmAfterMs: confirmationDelayOf(deps.config) },
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
  return deps.ctx.db.transaction(async (tx) => {
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

/**
 * M-Pesa prompts are checked once the customer had time to answer; card checkouts when they run out of
 * time (the webhook normally settles them first); saved-card charges answer at once, so one still
 * pending is checked soon after.
 */
export function checkDelayOf(config: PaymentsConfig, channel: PaymentChannel, saved: boolean): number {
  if (channel === 'mobile_money') return config.reconciliation.mobileMoneyCheckAfterMs;
  return saved ? confirmationDelayOf(config) : config.reconciliation.cardCheckoutExpireAfterMs;
}

/**
 * When a card payment whose answer never came is first looked up: late enough for a request still inside
 * the provider to have finished, soon enough for a retry to learn the outcome.
 */
export function confirmationDelayOf(config: PaymentsConfig): number {
  return 2 * config.providerTimeoutMs;
}
