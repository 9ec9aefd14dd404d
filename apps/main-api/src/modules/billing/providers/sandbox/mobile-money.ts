import { randomUUID } from 'node:crypto';
import type { MobileMoneyProvider, MobileMoneyRequest, PaymentLog, ProviderOutcome } from '../../payments/index.js';
import {
  darajaTimestamp,
  outcomeOfStkQuery,
  STILL_PROCESSING_ERROR_CODE,
  stillProcessing,
  stkResults,
} from '../daraja/index.js';
import {
  resultOfScenario,
  SANDBOX_PHONE_SCENARIOS,
  type SandboxPhoneScenario,
  scenarioOfPhone,
} from './phone-scenarios.js';

export interface SandboxMobileMoneyOptions {
  /** How long the sandbox "phone" takes to answer. */
  delayMs: number;
  /** Delivers a Daraja-shaped callback body to the same handler the real callback route uses. */
  deliverCallback: (body: unknown) => Promise<unknown>;
  now: () => Date;
  log: PaymentLog;
}

export interface SandboxMobileMoneyProvider extends MobileMoneyProvider {
  /**
   * Cancels callbacks not yet due and waits for those being delivered (the app is closing), so the database is
   * never closed under a settlement half done.
   */
  close(): Promise<void>;
}

const scenarios = new Set<string>(Object.values(SANDBOX_PHONE_SCENARIOS));
const CHECKOUT_ID = /^ws_CO_SANDBOX_([a-z_]+)_[0-9a-f]{32}$/;

/**
 * M-Pesa Express without Safaricom: the prompt "happens" in this process and its result comes back as a
 * Daraja-shaped callback (or query answer) through the same code as Daraja's. The scenario is carried in
 * the CheckoutRequestID, so a status query answers the same on any instance, even after a restart.
 */
export function createSandboxMobileMoneyProvider(options: SandboxMobileMoneyOptions): SandboxMobileMoneyProvider {
  const timers = new Set<NodeJS.Timeout>();
  const deliveries = new Set<Promise<void>>();

  function scheduleCallback(checkoutRequestId: string, request: MobileMoneyRequest, scenario: SandboxPhoneScenario) {
    const result = resultOfScenario(scenario);
    if (result === undefined || scenario === 'callback_lost') return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const body = callbackBody(checkoutRequestId, request, result, options.now());
      const delivery = options
        .deliverCallback(body)
        .then(
          () => undefined,
          (error: unknown) => {
            options.log.error({ err: error, checkoutRequestId }, 'The sandbox could not deliver an M-Pesa callback');
          },
        )
        .finally(() => deliveries.delete(delivery));
      deliveries.add(delivery);
    }, options.delayMs);
    timer.unref();
    timers.add(timer);
  }

  return {
    name: 'sandbox',
    // Its callbacks are Daraja's, delivered in this process.
    results: stkResults,

    async requestPayment(request) {
      const scenario = scenarioOfPhone(request.phone);
      const checkoutRequestId = `ws_CO_SANDBOX_${scenario}_${randomUUID().replaceAll('-', '')}`;
      scheduleCallback(checkoutRequestId, request, scenario);
      return { providerReference: checkoutRequestId };
    },

    async queryPayment(checkoutRequestId): Promise<ProviderOutcome> {
      const scenario = CHECKOUT_ID.exec(checkoutRequestId)?.[1];
      const known = scenario !== undefined && scenarios.has(scenario);
      const result = known ? resultOfScenario(scenario as SandboxPhoneScenario) : undefined;
      if (result === undefined) {
        const answer = {
          requestId: randomUUID(),
          errorCode: STILL_PROCESSING_ERROR_CODE,
          errorMessage: 'The transaction is being processed',
        };
        return stillProcessing(checkoutRequestId, 'sandbox_query', answer);
      }
      const answer = {
        ResponseCode: '0',
        ResponseDescription: 'The service request has been accepted successsfully',
        MerchantRequestID: `sandbox-${checkoutRequestId.slice(-8)}`,
        CheckoutRequestID: checkoutRequestId,
        ResultCode: String(result.code),
        ResultDesc: result.description,
      };
      const outcome = outcomeOfStkQuery(checkoutRequestId, answer, 'sandbox_query');
      if (outcome === undefined) throw new Error('The sandbox built an unreadable STK query answer');
      return outcome;
    },

    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(deliveries);
    },
  };
}

/** The body Daraja posts to the CallBackURL. */
function callbackBody(
  checkoutRequestId: string,
  request: MobileMoneyRequest,
  result: { code: number; description: string },
  at: Date,
) {
  return {
    Body: {
      stkCallback: {
        MerchantRequestID: `sandbox-${checkoutRequestId.slice(-8)}`,
        CheckoutRequestID: checkoutRequestId,
        ResultCode: result.code,
        ResultDesc: result.description,
        ...(result.code === 0
          ? {
              CallbackMetadata: {
                Item: [
                  { Name: 'Amount', Value: request.amount },
                  { Name: 'MpesaReceiptNumber', Value: `SBX${checkoutRequestId.slice(-7).toUpperCase()}` },
                  { Name: 'TransactionDate', Value: Number(darajaTimestamp(at)) },
                  { Name: 'PhoneNumber', Value: Number(request.phone) },
                ],
              },
            }
          : {}),
      },
    },
  };
}
