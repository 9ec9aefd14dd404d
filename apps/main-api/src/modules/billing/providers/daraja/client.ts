import type { DarajaConfig } from '../../config.js';
import {
  type MobileMoneyProvider,
  type MobileMoneyRequest,
  type ProviderOutcome,
  ProviderUnavailableError,
} from '../../payments/index.js';
import {
  beforeSending,
  failureOf,
  isRecord,
  type ProviderAnswer,
  type ProviderHttp,
  type ProviderTimeout,
  requestProvider,
} from '../http.js';
import { type AccessToken, createAccessTokenCache } from './access-token.js';
import { darajaPassword, darajaTimestamp } from './password.js';
import { outcomeOfStkQuery, STILL_PROCESSING_ERROR_CODE, stillProcessing, stkResults } from './results.js';

export interface DarajaOptions {
  config: DarajaConfig;
  /** Where Daraja posts the result: `${PUBLIC_URL}/v1/billing/webhooks/mpesa/<token>`. */
  callbackUrl: string;
  timeoutMs: number;
  /** Starts each request's time limit (AbortSignal.timeout by default). */
  timeout?: ProviderTimeout;
  now: () => Date;
}

const PROVIDER = 'daraja';
// A token is renewed a minute before it expires, so none expires between being read and being used.
const TOKEN_REFRESH_MARGIN_MS = 60_000;

/** Safaricom Daraja M-Pesa Express (STK push) for mobile money, with the STK query for reconciliation. */
export function createDarajaMobileMoneyProvider(options: DarajaOptions): MobileMoneyProvider {
  const { config, now } = options;
  const http: ProviderHttp = {
    provider: PROVIDER,
    baseUrl: config.baseUrl,
    timeoutMs: options.timeoutMs,
    timeout: options.timeout,
  };
  const tokens = createAccessTokenCache(() => fetchAccessToken(http, config, now), {
    now,
    refreshMarginMs: TOKEN_REFRESH_MARGIN_MS,
  });

  /**
   * POSTs with the cached token; a refused token is renewed and the request sent once more. A token that
   * cannot be had fails before anything is sent, so that failure is never an unknown outcome.
   */
  async function post(path: string, body: Record<string, unknown>): Promise<ProviderAnswer> {
    const send = async () => {
      const token = await tokens.get().catch((error: unknown) => {
        throw beforeSending(error);
      });
      return requestProvider(http, path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
    };
    const answer = await send();
    if (answer.status !== 401) return answer;
    tokens.invalidate();
    return send();
  }

  function credentials() {
    const timestamp = darajaTimestamp(now());
    return {
      BusinessShortCode: config.shortcode,
      Password: darajaPassword(config.shortcode, config.passkey, timestamp),
      Timestamp: timestamp,
    };
  }

  return {
    name: 'daraja',
    results: stkResults,

    async requestPayment(request: MobileMoneyRequest) {
      const answer = await post('/mpesa/stkpush/v1/processrequest', {
        ...credentials(),
        TransactionType: config.transactionType,
        Amount: request.amount,
        PartyA: request.phone,
        PartyB: config.partyB,
        PhoneNumber: request.phone,
        CallBackURL: options.callbackUrl,
        AccountReference: request.accountReference,
        TransactionDesc: request.description,
      });
      const body = isRecord(answer.body) ? answer.body : {};
      const checkoutRequestId = body['CheckoutRequestID'];
      if (answer.status === 200 && String(body['ResponseCode']) === '0' && typeof checkoutRequestId === 'string') {
        return { providerReference: checkoutRequestId };
      }
      throw failureOf(PROVIDER, answer, errorMessageOf(body));
    },

    async queryPayment(checkoutRequestId: string): Promise<ProviderOutcome> {
      const answer = await post('/mpesa/stkpushquery/v1/query', {
        ...credentials(),
        CheckoutRequestID: checkoutRequestId,
      });
      const body = isRecord(answer.body) ? answer.body : {};
      // "The transaction is being processed": an error answer that only means "no result yet".
      if (body['errorCode'] === STILL_PROCESSING_ERROR_CODE) {
        return stillProcessing(checkoutRequestId, 'daraja_query', body);
      }
      if (answer.status === 200 && String(body['ResponseCode']) === '0') {
        const outcome = outcomeOfStkQuery(checkoutRequestId, body, 'daraja_query');
        if (outcome !== undefined) return outcome;
      }
      throw failureOf(PROVIDER, answer, errorMessageOf(body));
    },
  };
}

/** GET /oauth/v1/generate with HTTP Basic consumer key and secret: `{access_token, expires_in}` (seconds, a string). */
async function fetchAccessToken(http: ProviderHttp, config: DarajaConfig, now: () => Date): Promise<AccessToken> {
  const basic = Buffer.from(`${config.consumerKey}:${config.consumerSecret}`, 'utf8').toString('base64');
  const answer = await requestProvider(http, '/oauth/v1/generate?grant_type=client_credentials', {
    method: 'GET',
    headers: { authorization: `Basic ${basic}` },
  });
  const body = isRecord(answer.body) ? answer.body : {};
  const value = body['access_token'];
  const expiresIn = Number(body['expires_in']);
  if (
    answer.status === 200 &&
    typeof value === 'string' &&
    value !== '' &&
    Number.isFinite(expiresIn) &&
    expiresIn > 0
  ) {
    return { value, expiresAt: new Date(now().getTime() + expiresIn * 1000) };
  }
  const error = failureOf(PROVIDER, answer, errorMessageOf(body));
  // Daraja answers a bad consumer key or secret with 400: that is our configuration, not the payment.
  throw error instanceof ProviderUnavailableError
    ? error
    : new ProviderUnavailableError(
        PROVIDER,
        'credentials_refused',
        `refused the OAuth request: ${errorMessageOf(body)}`,
      );
}

function errorMessageOf(body: Record<string, unknown>): string {
  const message = body['errorMessage'] ?? body['ResponseDescription'] ?? body['errorCode'];
  return typeof message === 'string' ? message : 'no message';
}
