import {
  type CardProvider,
  type CheckoutRequest,
  type ProviderOutcome,
  ProviderUnavailableError,
  type SavedCardCharge,
} from '../../payments/index.js';
import {
  failureOf,
  isRecord,
  type ProviderAnswer,
  type ProviderHttp,
  type ProviderTimeout,
  requestProvider,
} from '../http.js';
import { toPaystackSubunits } from './amounts.js';
import { outcomeOfPaystackTransaction, readPaystackTransaction } from './transaction.js';

export interface PaystackOptions {
  secretKey: string;
  baseUrl: string;
  timeoutMs: number;
  /** Starts each request's time limit (AbortSignal.timeout by default). */
  timeout?: ProviderTimeout;
}

const PROVIDER = 'paystack';

/** Paystack for cards: Initialize Transaction, Charge Authorization and Verify Transaction. */
export function createPaystackCardProvider(options: PaystackOptions): CardProvider {
  const http: ProviderHttp = {
    provider: PROVIDER,
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    timeout: options.timeout,
  };
  const headers = { authorization: `Bearer ${options.secretKey}` };

  return {
    name: 'paystack',

    async startCheckout(request: CheckoutRequest) {
      const answer = await requestProvider(http, '/transaction/initialize', {
        method: 'POST',
        headers,
        body: {
          email: request.email,
          amount: toPaystackSubunits(request.amount),
          currency: 'KES',
          reference: request.reference,
          callback_url: request.returnUrl,
          channels: ['card'],
          metadata: request.metadata,
        },
      });
      const data = successData(answer);
      const checkoutUrl = data['authorization_url'];
      if (typeof checkoutUrl !== 'string' || !URL.canParse(checkoutUrl)) throw unexpected(answer);
      return { checkoutUrl, providerReference: request.reference };
    },

    async chargeSavedCard(charge: SavedCardCharge): Promise<ProviderOutcome> {
      const answer = await requestProvider(http, '/transaction/charge_authorization', {
        method: 'POST',
        headers,
        body: {
          email: charge.email,
          amount: toPaystackSubunits(charge.amount),
          currency: 'KES',
          authorization_code: charge.authorizationCode,
          reference: charge.reference,
        },
      });
      const transaction = readPaystackTransaction(successData(answer));
      if (transaction === undefined) throw unexpected(answer);
      return outcomeOfPaystackTransaction(transaction, 'charge_authorization', 'paystack_charge', answer.body);
    },

    async lookUp(reference: string): Promise<ProviderOutcome | undefined> {
      const answer = await requestProvider(http, `/transaction/verify/${encodeURIComponent(reference)}`, {
        method: 'GET',
        headers,
      });
      // An unknown reference is a 400 (or 404) "Transaction reference not found": Paystack never made that
      // transaction. Any other refusal says nothing about it, so it is an error (asked again later).
      if ((answer.status === 400 || answer.status === 404) && referenceNotFound(answer)) return undefined;
      const transaction = readPaystackTransaction(successData(answer));
      if (transaction === undefined) throw unexpected(answer);
      return outcomeOfPaystackTransaction(transaction, 'verify', 'paystack_verify', answer.body);
    },
  };
}

/** `data` of a `{status: true, data}` answer; throws the matching provider error otherwise. */
function successData(answer: ProviderAnswer): Record<string, unknown> {
  const body = isRecord(answer.body) ? answer.body : undefined;
  if (answer.status >= 200 && answer.status < 300 && body?.['status'] === true && isRecord(body['data'])) {
    return body['data'];
  }
  const message = typeof body?.['message'] === 'string' ? body['message'] : 'no message';
  throw failureOf(PROVIDER, answer, message);
}

function referenceNotFound(answer: ProviderAnswer): boolean {
  const message = isRecord(answer.body) ? answer.body['message'] : undefined;
  return typeof message === 'string' && /reference not found/i.test(message);
}

function unexpected(answer: ProviderAnswer): ProviderUnavailableError {
  return new ProviderUnavailableError(
    PROVIDER,
    'unexpected_answer',
    `answered ${answer.status} without the expected fields`,
  );
}
