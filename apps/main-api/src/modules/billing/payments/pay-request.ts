import type { PaymentMethodKind, PaymentPurpose } from '@platform/db';
import { invalidFields, unsupportedPhoneOperator, type ValidationDetail } from '@platform/errors';
import type { SubscriptionTerms } from '@platform/pricing';
import { checkMpesaPhone } from '../phone/index.js';
import type { PayBody } from './schemas.js';

/** A pay request whose fields agree with each other; amounts are checked against limits later. */
export interface PayIntent {
  method: PaymentMethodKind;
  purpose: PaymentPurpose;
  /** Wallet top-ups: the amount asked for, a whole number of KES >= 1. */
  amount?: number;
  /** Mail subscription purchases: what is bought (the server prices it). */
  subscription?: SubscriptionTerms;
  /** mobile_money: `254` + 9 digits, a Safaricom number. */
  phone?: string;
  /** saved_method. */
  paymentMethodId?: string;
}

/**
 * Checks the rules the body schema cannot express: which fields each method and purpose needs or refuses,
 * and the phone number. Every problem is reported at once (400 validation_error with details); a number of
 * another operator is 400 unsupported_phone_operator.
 */
export function readPayIntent(body: PayBody): PayIntent {
  const details: ValidationDetail[] = [];
  const problem = (path: string, message: string) => details.push({ path, message });
  const { method, metadata } = body;
  const purpose = metadata?.type ?? 'wallet_topup';

  if (method !== 'mobile_money' && body.phone !== undefined) problem('/phone', 'is only used with method mobile_money');
  if (method === 'mobile_money' && body.phone === undefined) problem('/phone', 'is required for method mobile_money');
  if (method !== 'saved_method' && body.paymentMethodId !== undefined) {
    problem('/paymentMethodId', 'is only used with method saved_method');
  }
  if (method === 'saved_method' && body.paymentMethodId === undefined) {
    problem('/paymentMethodId', 'is required for method saved_method');
  }

  let subscription: SubscriptionTerms | undefined;
  if (purpose === 'wallet_topup') {
    if (body.amount === undefined) problem('/amount', 'is required for a wallet top-up');
    else if (!Number.isSafeInteger(body.amount) || body.amount < 1) {
      problem('/amount', 'must be a whole number of KES, at least 1');
    }
    for (const field of ['plan', 'seats', 'billingCycle'] as const) {
      if (metadata?.[field] !== undefined)
        problem(`/metadata/${field}`, 'is only used with metadata.type mail_subscription');
    }
  } else {
    const { plan, seats, billingCycle } = metadata ?? {};
    if (plan === undefined) problem('/metadata/plan', 'is required for a mail subscription');
    if (seats === undefined) problem('/metadata/seats', 'is required for a mail subscription');
    if (billingCycle === undefined) problem('/metadata/billingCycle', 'is required for a mail subscription');
    if (plan !== undefined && seats !== undefined && billingCycle !== undefined) {
      subscription = { plan, seats, cycle: billingCycle };
    }
  }

  const phone = method === 'mobile_money' && body.phone !== undefined ? checkMpesaPhone(body.phone) : undefined;
  if (phone !== undefined && !phone.ok && phone.problem === 'not_kenyan_mobile') problem('/phone', phone.message);

  if (details.length > 0) throw invalidFields(details);
  if (phone !== undefined && !phone.ok) throw unsupportedPhoneOperator(phone.message);

  return {
    method,
    purpose,
    ...(purpose === 'wallet_topup' && body.amount !== undefined ? { amount: body.amount } : {}),
    ...(subscription === undefined ? {} : { subscription }),
    ...(phone?.ok ? { phone: phone.msisdn } : {}),
    ...(body.paymentMethodId === undefined ? {} : { paymentMethodId: body.paymentMethodId }),
  };
}
