import type { PaymentProvider } from '@platform/db';
import { type SettlementContext, type SettlementResult, settleMobileMoneyResult } from '../../payments/index.js';
import { malformedMpesaReceiptNumberOf, stkResults } from './results.js';

/**
 * Handles one authentic M-Pesa Express callback body (from Daraja through the callback route, or from the
 * sandbox): read in our terms and handed to payments, which find the payment by its CheckoutRequestID and
 * settle it by the result code. Undefined when the body is not an STK callback. A success's M-Pesa receipt number is
 * kept when it is one; one that is not is logged (its type and length) and dropped.
 */
export async function processStkCallback(
  ctx: SettlementContext,
  provider: PaymentProvider,
  body: unknown,
  source: string,
): Promise<SettlementResult | undefined> {
  const result = stkResults.read(body, source);
  if (result === undefined) return undefined;
  const malformed = malformedMpesaReceiptNumberOf(body);
  if (malformed !== undefined) {
    // Its type and length only: the value is not ours to log (docs/decisions.md#m-pesa-receipt-number).
    ctx.log.warn(
      {
        provider,
        source,
        checkoutRequestId: result.providerReference,
        receiptNumber: { type: malformed.type, length: malformed.length },
      },
      'An M-Pesa success callback carried a receipt number that is not one (10 uppercase letters and digits): not stored',
    );
  }
  return settleMobileMoneyResult(ctx, provider, result);
}
