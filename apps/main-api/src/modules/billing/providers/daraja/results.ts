import { MPESA_RECEIPT_NUMBER_PATTERN, type PaymentStatus } from '@platform/db';
import type { MobileMoneyResults, ProviderOutcome } from '../../payments/index.js';
import { isRecord } from '../http.js';

/** The result code of an STK query whose prompt has no result yet ("The transaction is still under processing"). */
const STILL_UNDER_PROCESSING_RESULT_CODE = 4999;

/**
 * M-Pesa Express result codes: 0 paid; 1032 cancelled by the customer; 1037 (no answer from the phone)
 * and 1019 (the transaction expired) expired; 4999 (still under processing) no result yet, so pending;
 * anything else (wrong PIN, insufficient balance, ...) failed.
 */
export function statusOfResultCode(resultCode: number): PaymentStatus {
  if (resultCode === 0) return 'succeeded';
  if (resultCode === STILL_UNDER_PROCESSING_RESULT_CODE) return 'pending';
  if (resultCode === 1032) return 'cancelled';
  if (resultCode === 1037 || resultCode === 1019) return 'expired';
  return 'failed';
}

/** The Daraja error code of a query still in progress ("The transaction is being processed"). */
export const STILL_PROCESSING_ERROR_CODE = '500.001.1001';

export interface StkCallback {
  checkoutRequestId: string;
  outcome: ProviderOutcome;
}

/** The `stkCallback` object of a body posted to the CallBackURL, if it has one. */
function stkCallbackOf(body: unknown): Record<string, unknown> | undefined {
  const callback = isRecord(body) && isRecord(body['Body']) ? body['Body']['stkCallback'] : undefined;
  return isRecord(callback) ? callback : undefined;
}

/**
 * Reads the body Daraja posts to the CallBackURL: `{Body: {stkCallback: {MerchantRequestID,
 * CheckoutRequestID, ResultCode, ResultDesc, CallbackMetadata?: {Item: [{Name, Value}]}}}}`.
 * Undefined when it is not one.
 */
export function readStkCallback(body: unknown, source: string): StkCallback | undefined {
  const callback = stkCallbackOf(body);
  if (callback === undefined) return undefined;
  const checkoutRequestId = callback['CheckoutRequestID'];
  const resultCode = toResultCode(callback['ResultCode']);
  if (typeof checkoutRequestId !== 'string' || checkoutRequestId === '' || resultCode === undefined) return undefined;
  const status = statusOfResultCode(resultCode);
  const paid = status === 'succeeded' ? paidAmountOf(callback['CallbackMetadata']) : undefined;
  const receiptNumber = status === 'succeeded' ? readMpesaReceiptNumber(callback['CallbackMetadata']) : undefined;
  return {
    checkoutRequestId,
    outcome: {
      status,
      eventKey: `daraja:callback:${checkoutRequestId}:${resultCode}`,
      source,
      payload: body,
      // Without an Amount item the amount is "not reported" (as by the STK query): M-Pesa Express charges
      // exactly the prompt's amount. An Amount that is there but unreadable still fails the comparison.
      ...(paid === undefined ? {} : { paid }),
      ...(receiptNumber?.kind === 'valid' ? { mpesaReceiptNumber: receiptNumber.value } : {}),
      ...(status === 'succeeded' || status === 'pending'
        ? {}
        : { reason: describe(callback['ResultDesc'], resultCode) }),
    },
  };
}

/** What a success callback says was paid, or undefined when its metadata carries no Amount item. */
function paidAmountOf(metadata: unknown): { amount: number; currency: string } | undefined {
  const items = metadataItems(metadata);
  if (!items.has('Amount')) return undefined;
  const amount = items.get('Amount');
  return { amount: typeof amount === 'number' ? amount : Number(amount), currency: 'KES' };
}

const MPESA_RECEIPT_NUMBER = new RegExp(MPESA_RECEIPT_NUMBER_PATTERN);

/**
 * The `MpesaReceiptNumber` item of a success callback's metadata: absent, one (10 uppercase letters and digits, as
 * Safaricom writes them), or something else, which is never stored; of that only its type and length are told, for
 * the log (it could be anything, a phone number included: docs/decisions.md#m-pesa-receipt-number).
 */
export type MpesaReceiptNumberReading =
  | { kind: 'absent' }
  | { kind: 'valid'; value: string }
  | { kind: 'malformed'; type: string; length: number | null };

export function readMpesaReceiptNumber(metadata: unknown): MpesaReceiptNumberReading {
  const items = metadataItems(metadata);
  if (!items.has('MpesaReceiptNumber')) return { kind: 'absent' };
  const value = items.get('MpesaReceiptNumber');
  if (typeof value === 'string' && MPESA_RECEIPT_NUMBER.test(value)) return { kind: 'valid', value };
  return { kind: 'malformed', type: value === null ? 'null' : typeof value, length: lengthOf(value) };
}

/** What a success callback's receipt number item is, when it is there and is not a receipt number. */
export function malformedMpesaReceiptNumberOf(
  body: unknown,
): Extract<MpesaReceiptNumberReading, { kind: 'malformed' }> | undefined {
  const callback = stkCallbackOf(body);
  if (callback === undefined || toResultCode(callback['ResultCode']) !== 0) return undefined;
  const reading = readMpesaReceiptNumber(callback['CallbackMetadata']);
  return reading.kind === 'malformed' ? reading : undefined;
}

function lengthOf(value: unknown): number | null {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number') return String(value).length;
  return null;
}

/** The paying number and amount of a success callback, when it reports them (for support and alarms). */
function payerOfStkCallback(body: unknown): { phone: string; amount: number } | undefined {
  const callback = stkCallbackOf(body);
  if (callback === undefined) return undefined;
  const items = metadataItems(callback['CallbackMetadata']);
  const phone = items.get('PhoneNumber');
  const amount = Number(items.get('Amount'));
  if ((typeof phone !== 'number' && typeof phone !== 'string') || !Number.isSafeInteger(amount)) return undefined;
  return { phone: String(phone), amount };
}

/**
 * M-Pesa Express results as payments read them again from their events: callbacks posted by Daraja, and those
 * the sandbox delivers in Daraja's shape (its results take Daraja's code path).
 */
export const stkResults: MobileMoneyResults = {
  sources: ['daraja_callback', 'sandbox_callback'],
  keyPrefixOf: (checkoutRequestId) => `daraja:callback:${checkoutRequestId}:`,
  read(payload, source) {
    const callback = readStkCallback(payload, source);
    if (callback === undefined) return undefined;
    return {
      providerReference: callback.checkoutRequestId,
      outcome: callback.outcome,
      payer: payerOfStkCallback(payload),
    };
  },
};

/**
 * Our outcome for an STK query answer `{ResponseCode, ResultCode, ResultDesc, CheckoutRequestID}`
 * (ResultCode arrives as a string). The query reports no amount: M-Pesa Express charges exactly the
 * amount of the prompt.
 */
export function outcomeOfStkQuery(
  checkoutRequestId: string,
  answer: Record<string, unknown>,
  source: string,
): ProviderOutcome | undefined {
  const resultCode = toResultCode(answer['ResultCode']);
  if (resultCode === undefined) return undefined;
  const status = statusOfResultCode(resultCode);
  if (status === 'pending') return stillProcessing(checkoutRequestId, source, answer);
  return {
    status,
    eventKey: `daraja:query:${checkoutRequestId}:${resultCode}`,
    source,
    payload: answer,
    ...(status === 'succeeded' ? {} : { reason: describe(answer['ResultDesc'], resultCode) }),
  };
}

/** The outcome recorded when a query says the prompt is still being processed. */
export function stillProcessing(checkoutRequestId: string, source: string, payload: unknown): ProviderOutcome {
  return { status: 'pending', eventKey: `daraja:query:${checkoutRequestId}:processing`, source, payload };
}

function toResultCode(value: unknown): number | undefined {
  const code = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

function metadataItems(metadata: unknown): Map<string, unknown> {
  const items = isRecord(metadata) && Array.isArray(metadata['Item']) ? metadata['Item'] : [];
  return new Map(
    items.filter(isRecord).flatMap((item) => (typeof item['Name'] === 'string' ? [[item['Name'], item['Value']]] : [])),
  );
}

function describe(resultDesc: unknown, resultCode: number): string {
  return typeof resultDesc === 'string' && resultDesc !== '' ? resultDesc : `M-Pesa result code ${resultCode}`;
}
