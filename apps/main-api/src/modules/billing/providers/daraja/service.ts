import type { PaymentProvider } from '@platform/db';
import { type SettlementContext, type SettlementResult, settleMobileMoneyResult } from '../../payments/index.js';
import { stkResults } from './results.js';

/**
 * Handles one authentic M-Pesa Express callback body (from Daraja through the callback route, or from the
 * sandbox): read in our terms and handed to payments, which find the payment by its CheckoutRequestID and
 * settle it by the result code. Undefined when the body is not an STK callback.
 */
export async function processStkCallback(
  ctx: SettlementContext,
  provider: PaymentProvider,
  body: unknown,
  source: string,
): Promise<SettlementResult | undefined> {
  const result = stkResults.read(body, source);
  if (result === undefined) return undefined;
  return settleMobileMoneyResult(ctx, provider, result);
}
