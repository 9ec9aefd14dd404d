import type { PaymentStatus } from '@platform/db';
import type { ProviderOutcome, ReusableCard } from '../../payments/index.js';
import { isRecord } from '../http.js';
import { fromPaystackSubunits } from './amounts.js';

/** The fields of a Paystack transaction object (webhook `data`, verify and charge answers) we rely on. */
export interface PaystackTransaction {
  id: number | string;
  reference: string;
  status: string;
  /** Subunits. */
  amount: number;
  currency: string;
  gateway_response?: string | null;
  channel?: string;
  authorization?: Record<string, unknown> | null;
  customer?: { email?: string } | null;
}

/** The transaction object if `value` looks like one, else undefined. */
export function readPaystackTransaction(value: unknown): PaystackTransaction | undefined {
  if (!isRecord(value)) return undefined;
  const { id, reference, status, amount, currency } = value;
  if (typeof id !== 'number' && typeof id !== 'string') return undefined;
  if (typeof reference !== 'string' || typeof status !== 'string') return undefined;
  if (typeof amount !== 'number' || typeof currency !== 'string') return undefined;
  return value as unknown as PaystackTransaction;
}

// Paystack's transaction statuses; anything else (abandoned, ongoing, pending, processing, queued,
// reversed...) is not a final answer about the charge.
function statusOf(transaction: PaystackTransaction): PaymentStatus {
  if (transaction.status === 'success') return 'succeeded';
  if (transaction.status === 'failed') return 'failed';
  return 'pending';
}

/**
 * Our outcome for a Paystack transaction, whichever way it arrived. `eventName` names the event
 * (`charge.success` from a webhook, `verify`, `charge_authorization`); with the transaction id and status it
 * makes the event key, so a redelivered webhook is a duplicate.
 */
export function outcomeOfPaystackTransaction(
  transaction: PaystackTransaction,
  eventName: string,
  source: string,
  payload: unknown,
): ProviderOutcome {
  const status = statusOf(transaction);
  const reusableCard = status === 'succeeded' ? reusableCardOf(transaction) : undefined;
  return {
    status,
    eventKey: `paystack:${eventName}:${transaction.id}:${transaction.status}`,
    source,
    payload,
    ...(status === 'succeeded'
      ? { paid: { amount: fromPaystackSubunits(transaction.amount), currency: transaction.currency } }
      : {}),
    ...(status === 'failed' ? { reason: transaction.gateway_response ?? 'The card payment failed' } : {}),
    ...(reusableCard === undefined ? {} : { reusableCard }),
  };
}

function reusableCardOf(transaction: PaystackTransaction): ReusableCard | undefined {
  const authorization = transaction.authorization;
  const email = transaction.customer?.email;
  if (!isRecord(authorization) || authorization['reusable'] !== true || typeof email !== 'string') return undefined;
  if (transaction.channel !== undefined && transaction.channel !== 'card') return undefined;
  const code = authorization['authorization_code'];
  const last4 = authorization['last4'];
  const signature = authorization['signature'];
  if (typeof code !== 'string' || typeof last4 !== 'string' || typeof signature !== 'string') return undefined;
  return {
    authorizationCode: code,
    signature,
    customerEmail: email,
    brand: text(authorization['brand']) ?? text(authorization['card_type']),
    last4,
    expMonth: integer(authorization['exp_month']),
    expYear: integer(authorization['exp_year']),
    bank: text(authorization['bank']),
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

// Paystack sends expiry months and years as strings ("08", "2030").
function integer(value: unknown): number | null {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : null;
}
