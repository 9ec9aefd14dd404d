import { randomBytes, randomUUID } from 'node:crypto';
import {
  asRecord,
  type FakeBehaviour,
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  startFakeHttpServer,
} from './fake-http-server.js';

export const FAKE_DARAJA = {
  consumerKey: 'fake-consumer-key',
  consumerSecret: 'fake-consumer-secret',
  shortcode: '174379',
  passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
  callbackToken: 'mpesa-callback-token-0123456789abcdef0123456789',
} as const;

/** The Daraja settings main-api needs to talk to a fake Daraja at `url`. */
export function fakeDarajaEnv(url: string): NodeJS.ProcessEnv {
  return {
    DARAJA_CONSUMER_KEY: FAKE_DARAJA.consumerKey,
    DARAJA_CONSUMER_SECRET: FAKE_DARAJA.consumerSecret,
    DARAJA_SHORTCODE: FAKE_DARAJA.shortcode,
    DARAJA_PASSKEY: FAKE_DARAJA.passkey,
    DARAJA_CALLBACK_TOKEN: FAKE_DARAJA.callbackToken,
    DARAJA_BASE_URL: url,
  };
}

interface FakeStkPrompt {
  merchantRequestId: string;
  checkoutRequestId: string;
  amount: number;
  phone: string;
  callbackUrl: string;
  accountReference: string;
  transactionDesc: string;
  /** Set once the customer answered the prompt. */
  result?: { code: number; description: string };
  /** The M-Pesa receipt number its success callbacks carry (10 uppercase letters and digits, as Safaricom's). */
  mpesaReceiptNumber: string;
}

export interface FakeDaraja {
  server: FakeHttpServer;
  url: string;
  /**
   * Answer normally, or misbehave before or after acting on the request (FakeBehaviour). `server_error` is
   * Daraja's own failure (500, errorCode 500.003.1001), never the "being processed" answer of the query.
   */
  behaviour(behaviour: FakeBehaviour): void;
  prompts: Map<string, FakeStkPrompt>;
  /** Access tokens issued. */
  tokensIssued: string[];
  /** Tokens the fake no longer accepts (401), to test renewal. */
  revokedTokens: Set<string>;
  /** Bodies the STK push requests carried (Password, Timestamp and all). */
  pushBodies: Record<string, unknown>[];
  lastPrompt(): FakeStkPrompt;
  /** The customer answers the prompt; the result becomes visible to the STK query. */
  answer(checkoutRequestId: string, code: number, description?: string): FakeStkPrompt;
  /** The callback body Daraja sends for an answered prompt (`omitItems`: CallbackMetadata items left out). */
  callbackBody(checkoutRequestId: string, options?: CallbackOptions): Record<string, unknown>;
  /** POSTs the callback to the CallBackURL of the prompt (or to `url` when given). */
  deliverCallback(
    checkoutRequestId: string,
    url?: string,
    options?: CallbackOptions,
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

interface CallbackOptions {
  /** CallbackMetadata items the callback leaves out (e.g. `Amount`). */
  omitItems?: string[];
  /** The MpesaReceiptNumber item's value in place of the prompt's (a malformed one, say). */
  mpesaReceiptNumber?: unknown;
}

/** Daraja's answer when it fails itself (a 5xx that is not about the transaction). */
const DARAJA_SERVER_ERROR = { errorCode: '500.003.1001', errorMessage: 'Internal Server Error' } as const;

const DESCRIPTIONS: Record<number, string> = {
  0: 'The service request is processed successfully.',
  1: 'The balance is insufficient for the transaction.',
  1019: 'Transaction has expired',
  1032: 'Request cancelled by user',
  1037: 'DS timeout user cannot be reached',
  2001: 'The initiator information is invalid.',
  4999: 'The transaction is still under processing',
};

const badRequest = (field: string): FakeReply => ({
  status: 400,
  body: { requestId: randomUUID(), errorCode: '400.002.02', errorMessage: `Bad Request - Invalid ${field}` },
});

/**
 * A stand-in for Safaricom Daraja that speaks its formats: OAuth client-credentials tokens (expires_in as a
 * string), M-Pesa Express STK push with the Password = base64(Shortcode + Passkey + Timestamp) check, the STK
 * query ("being processed" is 500 with errorCode 500.001.1001 before the customer answers; `answer(id, 4999)`
 * makes it ResultCode 4999, "still under processing"), and result callbacks to the CallBackURL.
 */
export async function startFakeDaraja(): Promise<FakeDaraja> {
  const prompts = new Map<string, FakeStkPrompt>();
  const tokensIssued: string[] = [];
  const revokedTokens = new Set<string>();
  const pushBodies: Record<string, unknown>[] = [];

  function validToken(request: FakeRequest): boolean {
    const token = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    return token !== undefined && tokensIssued.includes(token) && !revokedTokens.has(token);
  }

  function checkCredentials(body: Record<string, unknown>): FakeReply | undefined {
    if (body['BusinessShortCode'] !== FAKE_DARAJA.shortcode) return badRequest('BusinessShortCode');
    const timestamp = body['Timestamp'];
    if (typeof timestamp !== 'string' || !/^[0-9]{14}$/.test(timestamp)) return badRequest('Timestamp');
    const expected = Buffer.from(`${FAKE_DARAJA.shortcode}${FAKE_DARAJA.passkey}${timestamp}`).toString('base64');
    if (body['Password'] !== expected) return badRequest('Password');
    return undefined;
  }

  function handle(request: FakeRequest): FakeReply {
    if (request.method === 'GET' && request.url === '/oauth/v1/generate?grant_type=client_credentials') {
      const basic = Buffer.from(`${FAKE_DARAJA.consumerKey}:${FAKE_DARAJA.consumerSecret}`).toString('base64');
      if (request.headers.authorization !== `Basic ${basic}`) {
        return { status: 400, body: { errorCode: '400.008.01', errorMessage: 'Invalid Authentication passed' } };
      }
      const token = randomBytes(14).toString('base64url');
      tokensIssued.push(token);
      return { status: 200, body: { access_token: token, expires_in: '3599' } };
    }
    if (!validToken(request)) {
      return {
        status: 401,
        body: { requestId: randomUUID(), errorCode: '404.001.03', errorMessage: 'Invalid Access Token' },
      };
    }
    const body = asRecord(request.body);
    if (request.method === 'POST' && request.url === '/mpesa/stkpush/v1/processrequest') {
      pushBodies.push(body);
      const refused = checkCredentials(body);
      if (refused !== undefined) return refused;
      if (body['TransactionType'] !== 'CustomerPayBillOnline' && body['TransactionType'] !== 'CustomerBuyGoodsOnline') {
        return badRequest('TransactionType');
      }
      const amount = body['Amount'];
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1) return badRequest('Amount');
      const phone = body['PhoneNumber'];
      if (typeof phone !== 'string' || !/^254(7|1)[0-9]{8}$/.test(phone) || body['PartyA'] !== phone)
        return badRequest('PhoneNumber');
      if (body['PartyB'] !== FAKE_DARAJA.shortcode) return badRequest('PartyB');
      const callbackUrl = body['CallBackURL'];
      if (typeof callbackUrl !== 'string' || !URL.canParse(callbackUrl)) return badRequest('CallBackURL');
      const accountReference = body['AccountReference'];
      if (typeof accountReference !== 'string' || accountReference.length < 1 || accountReference.length > 12) {
        return badRequest('AccountReference');
      }
      const transactionDesc = body['TransactionDesc'];
      if (typeof transactionDesc !== 'string' || transactionDesc.length < 1 || transactionDesc.length > 13) {
        return badRequest('TransactionDesc');
      }
      const prompt: FakeStkPrompt = {
        merchantRequestId: `${randomBytes(3).toString('hex')}-${Date.now()}-1`,
        checkoutRequestId: `ws_CO_${Date.now()}${randomBytes(4).toString('hex')}`,
        amount,
        phone,
        callbackUrl,
        accountReference,
        transactionDesc,
        mpesaReceiptNumber: `TST${randomBytes(4).toString('hex').toUpperCase().slice(0, 7)}`,
      };
      prompts.set(prompt.checkoutRequestId, prompt);
      return {
        status: 200,
        body: {
          MerchantRequestID: prompt.merchantRequestId,
          CheckoutRequestID: prompt.checkoutRequestId,
          ResponseCode: '0',
          ResponseDescription: 'Success. Request accepted for processing',
          CustomerMessage: 'Success. Request accepted for processing',
        },
      };
    }
    if (request.method === 'POST' && request.url === '/mpesa/stkpushquery/v1/query') {
      const refused = checkCredentials(body);
      if (refused !== undefined) return refused;
      const prompt = prompts.get(String(body['CheckoutRequestID']));
      if (prompt === undefined) return badRequest('CheckoutRequestID');
      if (prompt.result === undefined) {
        return {
          status: 500,
          body: {
            requestId: randomUUID(),
            errorCode: '500.001.1001',
            errorMessage: 'The transaction is being processed',
          },
        };
      }
      return {
        status: 200,
        body: {
          ResponseCode: '0',
          ResponseDescription: 'The service request has been accepted successsfully',
          MerchantRequestID: prompt.merchantRequestId,
          CheckoutRequestID: prompt.checkoutRequestId,
          ResultCode: String(prompt.result.code),
          ResultDesc: prompt.result.description,
        },
      };
    }
    return {
      status: 404,
      body: { requestId: randomUUID(), errorCode: '404.001.01', errorMessage: 'Resource not found' },
    };
  }

  const server = await startFakeHttpServer(handle, { requestId: randomUUID(), ...DARAJA_SERVER_ERROR });

  const promptOf = (checkoutRequestId: string) => {
    const prompt = prompts.get(checkoutRequestId);
    if (prompt === undefined) throw new Error(`Fake Daraja knows no prompt ${checkoutRequestId}`);
    return prompt;
  };

  const fake: FakeDaraja = {
    server,
    url: server.url,
    prompts,
    tokensIssued,
    revokedTokens,
    pushBodies,
    lastPrompt() {
      const last = [...prompts.values()].at(-1);
      if (last === undefined) throw new Error('Fake Daraja received no STK push');
      return last;
    },
    answer(checkoutRequestId, code, description) {
      const prompt = promptOf(checkoutRequestId);
      prompt.result = { code, description: description ?? DESCRIPTIONS[code] ?? `Result ${code}` };
      return prompt;
    },
    callbackBody(checkoutRequestId, options = {}) {
      const prompt = promptOf(checkoutRequestId);
      if (prompt.result === undefined) throw new Error('The prompt has not been answered');
      const omitted = new Set(options.omitItems ?? []);
      return {
        Body: {
          stkCallback: {
            MerchantRequestID: prompt.merchantRequestId,
            CheckoutRequestID: prompt.checkoutRequestId,
            ResultCode: prompt.result.code,
            ResultDesc: prompt.result.description,
            ...(prompt.result.code === 0
              ? {
                  CallbackMetadata: {
                    Item: [
                      { Name: 'Amount', Value: prompt.amount },
                      { Name: 'MpesaReceiptNumber', Value: options.mpesaReceiptNumber ?? prompt.mpesaReceiptNumber },
                      { Name: 'Balance' },
                      { Name: 'TransactionDate', Value: 20240117143015 },
                      { Name: 'PhoneNumber', Value: Number(prompt.phone) },
                    ].filter((item) => !omitted.has(item.Name)),
                  },
                }
              : {}),
          },
        },
      };
    },
    async deliverCallback(checkoutRequestId, url, options) {
      const response = await fetch(url ?? promptOf(checkoutRequestId).callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fake.callbackBody(checkoutRequestId, options)),
      });
      return { status: response.status, body: await response.text() };
    },
    behaviour(behaviour) {
      server.behaviour = behaviour;
    },
    close: () => server.close(),
  };
  return fake;
}
