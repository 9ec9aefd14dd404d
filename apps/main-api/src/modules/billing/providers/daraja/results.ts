import type { PaymentStatus } from '@platform/db';
import { isRecord } from '../http.js';
import type { ProviderOutcome } from '../ports.js';

/**
 * M-Pesa Express result codes: 0 paid; 1032 cancelled by the customer; 1037 (no answer from the phone)
 * and 1019 (the transaction expired) expired; anything else (wrong PIN, insufficient balance, ...) failed.
 */
export function statusOfResultCode(resultCode: number): PaymentStatus {
  if (resultCode === 0) return 'succeeded';
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

/**
 * Reads the body Daraja posts to the CallBackURL: `{Body: {stkCallback: {MerchantRequestID,
 * CheckoutRequestID, ResultCode, ResultDesc, CallbackMetadata?: {Item: [{Name, Value}]}}}}`.
 * Undefined when it is not one.
 */
export function readStkCallback(body: unknown, source: string): StkCallback | undefined {
  const callback = isRecord(body) && isRecord(body['Body']) ? body['Body']['stkCallback'] : undefined;
  if (!isRecord(callback)) return undefined;
  const checkoutRequestId = callback['CheckoutRequestID'];
  const resultCode = toResultCode(callback['ResultCode']);
  if (typeof checkoutRequestId !== 'string' || checkoutRequestId === '' || resultCode === undefined) return undefined;
  const status = statusOfResultCode(resultCode);
  const items = metadataItems(callback['CallbackMetadata']);
  const amount = items.get('Amount');
  return {
    checkoutRequestId,
    outcome: {
      status,
      eventKey: `daraja:callback:${checkoutRequestId}:${resultCode}`,
      source,
      payload: body,
      ...(status === 'succeeded'
        ? { paid: { amount: typeof amount === 'number' ? amount : Number(amount), currency: 'KES' } }
        : { reason: describe(callback['ResultDesc'], resultCode) }),
    },
  };
}

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
