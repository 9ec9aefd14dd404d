import { createHmac, randomBytes } from 'node:crypto';
import {
  asRecord,
  type FakeBehaviour,
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  startFakeHttpServer,
} from './fake-http-server.js';

export const FAKE_PAYSTACK_SECRET = 'sk_test_fakepaystacksecretkey0000000000';

interface FakePaystackTransaction {
  id: number;
  reference: string;
  /** Subunits, as Paystack counts. */
  amount: number;
  currency: string;
  email: string;
  /** `abandoned`: initialized, not paid; `pending`: a charge still being processed. */
  status: 'abandoned' | 'pending' | 'success' | 'failed';
  callbackUrl: string | undefined;
  accessCode: string;
  gatewayResponse: string | null;
  authorization: Record<string, unknown> | null;
}

export interface FakePaystack {
  server: FakeHttpServer;
  url: string;
  /** Answer normally, or misbehave before or after acting on the request (FakeBehaviour). */
  behaviour(behaviour: FakeBehaviour): void;
  transactions: Map<string, FakePaystackTransaction>;
  /** Where signed webhooks are posted (the service's /v1/billing/webhooks/paystack). */
  webhookUrl: string;
  /** Authorization codes charge_authorization approves; any other code is declined (unless pending). */
  approvedAuthorizations: Set<string>;
  /** Authorization codes whose charges stay `pending` until settleCharge (the bank has not answered yet). */
  pendingAuthorizations: Set<string>;
  /** The bank answers a pending charge: verify (and a `charge.success` event) then report it. */
  settleCharge(reference: string, status: 'success' | 'failed'): FakePaystackTransaction;
  /**
   * While set, charge_authorization answers only once this settles (the bank is slow), so a test holds a race
   * open for as long as it needs, however slow the machine, instead of for a fixed time.
   */
  chargeGate: Promise<void> | undefined;
  /** The charge_authorization requests received, in order. */
  charges(): FakeRequest[];
  /** The customer pays at the checkout: the transaction succeeds with a card authorization. */
  completeCheckout(reference: string, options?: { reusable?: boolean; paidSubunits?: number }): FakePaystackTransaction;
  /** The `charge.success` event body for a successful transaction, exactly as it will be signed. */
  chargeSuccessEvent(reference: string): string;
  /** POSTs an event body to the webhook URL, signed with the secret (or with `signature` when given). */
  deliverWebhook(rawBody: string, signature?: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/**
 * A stand-in for api.paystack.co that speaks its request and response formats: Bearer secret key, amounts
 * in subunits, `{status, message, data}` answers, `transaction/initialize`, `transaction/charge_authorization`,
 * `transaction/verify/:reference`, and webhooks signed with HMAC-SHA512 of the body.
 */
export async function startFakePaystack(options: { webhookUrl?: string } = {}): Promise<FakePaystack> {
  const transactions = new Map<string, FakePaystackTransaction>();
  const approvedAuthorizations = new Set<string>();
  const pendingAuthorizations = new Set<string>();
  let nextId = 4_000_000;

  const authorizationFor = (reusable: boolean) => ({
    authorization_code: `AUTH_${randomBytes(5).toString('hex')}`,
    bin: '408408',
    last4: '4081',
    exp_month: '12',
    exp_year: '2030',
    channel: 'card',
    card_type: 'visa ',
    bank: 'TEST BANK',
    country_code: 'KE',
    brand: 'visa',
    reusable,
    signature: 'SIG_fake_visa_4081',
    account_name: null,
  });

  const transactionData = (transaction: FakePaystackTransaction) => ({
    id: transaction.id,
    domain: 'test',
    status: transaction.status,
    reference: transaction.reference,
    amount: transaction.amount,
    message: null,
    gateway_response: transaction.gatewayResponse,
    paid_at: transaction.status === 'success' ? new Date().toISOString() : null,
    created_at: new Date().toISOString(),
    channel: 'card',
    currency: transaction.currency,
    ip_address: '127.0.0.1',
    metadata: '',
    fees: transaction.status === 'success' ? Math.round(transaction.amount * 0.029) : null,
    customer: {
      id: 91,
      first_name: null,
      last_name: null,
      email: transaction.email,
      customer_code: 'CUS_fake',
      phone: null,
    },
    authorization: transaction.authorization,
    plan: null,
  });

  async function handle(request: FakeRequest): Promise<FakeReply> {
    if (request.headers.authorization !== `Bearer ${FAKE_PAYSTACK_SECRET}`) {
      return { status: 401, body: { status: false, message: 'Invalid key' } };
    }
    const body = asRecord(request.body);
    if (request.method === 'POST' && request.url === '/transaction/initialize') {
      const amount = Number(body['amount']);
      if (typeof body['email'] !== 'string' || !body['email'].includes('@')) {
        return { status: 400, body: { status: false, message: 'Invalid Email Address Passed' } };
      }
      if (!Number.isInteger(amount) || amount <= 0)
        return { status: 400, body: { status: false, message: 'Invalid Amount Sent' } };
      const reference = String(body['reference']);
      if (transactions.has(reference)) {
        return { status: 400, body: { status: false, message: 'Duplicate Transaction Reference' } };
      }
      const accessCode = randomBytes(6).toString('hex');
      transactions.set(reference, {
        id: nextId++,
        reference,
        amount,
        currency: String(body['currency'] ?? 'NGN'),
        email: body['email'],
        status: 'abandoned',
        callbackUrl: typeof body['callback_url'] === 'string' ? body['callback_url'] : undefined,
        accessCode,
        gatewayResponse: null,
        authorization: null,
      });
      return {
        status: 200,
        body: {
          status: true,
          message: 'Authorization URL created',
          data: {
            authorization_url: `https://checkout.paystack.com/${accessCode}`,
            access_code: accessCode,
            reference,
          },
        },
      };
    }
    if (request.method === 'POST' && request.url === '/transaction/charge_authorization') {
      if (fake.chargeGate !== undefined) await fake.chargeGate;
      const code = String(body['authorization_code']);
      const reference = String(body['reference']);
      if (transactions.has(reference)) {
        return { status: 400, body: { status: false, message: 'Duplicate Transaction Reference' } };
      }
      const approved = approvedAuthorizations.has(code);
      const pending = pendingAuthorizations.has(code);
      const transaction: FakePaystackTransaction = {
        id: nextId++,
        reference,
        amount: Number(body['amount']),
        currency: String(body['currency'] ?? 'NGN'),
        email: String(body['email']),
        status: pending ? 'pending' : approved ? 'success' : 'failed',
        callbackUrl: undefined,
        accessCode: '',
        gatewayResponse: pending ? 'Transaction in progress' : approved ? 'Approved' : 'Declined',
        authorization: { ...authorizationFor(true), authorization_code: code },
      };
      transactions.set(reference, transaction);
      return { status: 200, body: { status: true, message: 'Charge attempted', data: transactionData(transaction) } };
    }
    const verify = /^\/transaction\/verify\/(.+)$/.exec(request.url);
    if (request.method === 'GET' && verify?.[1] !== undefined) {
      const transaction = transactions.get(decodeURIComponent(verify[1]));
      if (transaction === undefined)
        return { status: 400, body: { status: false, message: 'Transaction reference not found' } };
      return {
        status: 200,
        body: { status: true, message: 'Verification successful', data: transactionData(transaction) },
      };
    }
    return { status: 404, body: { status: false, message: 'Not found' } };
  }

  const server = await startFakeHttpServer(handle, { status: false, message: 'An error occurred' });
  const fake: FakePaystack = {
    server,
    url: server.url,
    transactions,
    webhookUrl: options.webhookUrl ?? '',
    approvedAuthorizations,
    pendingAuthorizations,
    chargeGate: undefined,
    charges: () => server.requests.filter((request) => request.url === '/transaction/charge_authorization'),
    completeCheckout(reference, completion = {}) {
      const transaction = transactions.get(reference);
      if (transaction === undefined) throw new Error(`Fake Paystack knows no transaction ${reference}`);
      transaction.status = 'success';
      transaction.gatewayResponse = 'Successful';
      transaction.authorization = authorizationFor(completion.reusable ?? true);
      if (completion.paidSubunits !== undefined) transaction.amount = completion.paidSubunits;
      return transaction;
    },
    settleCharge(reference, status) {
      const transaction = transactions.get(reference);
      if (transaction === undefined) throw new Error(`Fake Paystack knows no transaction ${reference}`);
      transaction.status = status;
      transaction.gatewayResponse = status === 'success' ? 'Approved' : 'Declined';
      return transaction;
    },
    chargeSuccessEvent(reference) {
      const transaction = transactions.get(reference);
      if (transaction === undefined) throw new Error(`Fake Paystack knows no transaction ${reference}`);
      return JSON.stringify({ event: 'charge.success', data: transactionData(transaction) });
    },
    async deliverWebhook(rawBody, signature) {
      const response = await fetch(fake.webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-paystack-signature': signature ?? createHmac('sha512', FAKE_PAYSTACK_SECRET).update(rawBody).digest('hex'),
        },
        body: rawBody,
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
