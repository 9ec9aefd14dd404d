import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_DARAJA, type FakeDaraja, startFakeDaraja } from '../../../../../test/fake-daraja.js';
import { TEST_PROVIDER_TIMEOUT_MS } from '../../../../../test/helpers.js';
import { manualTimeouts } from '../../../../../test/manual-timeouts.js';
import type { DarajaConfig } from '../../config.js';
import { newPaymentReference } from '../../payments/reference.js';
import { createDarajaMobileMoneyProvider } from './client.js';
import { darajaTimestamp } from './password.js';

let daraja: FakeDaraja;
let clock: number;
// A request the fake leaves unanswered times out at once; any other gets a generous limit.
const timeouts = manualTimeouts();

function config(overrides: Partial<DarajaConfig> = {}): DarajaConfig {
  return {
    kind: 'daraja',
    consumerKey: FAKE_DARAJA.consumerKey,
    consumerSecret: FAKE_DARAJA.consumerSecret,
    shortcode: FAKE_DARAJA.shortcode,
    passkey: FAKE_DARAJA.passkey,
    baseUrl: daraja.url,
    transactionType: 'CustomerPayBillOnline',
    partyB: FAKE_DARAJA.shortcode,
    callbackToken: FAKE_DARAJA.callbackToken,
    ...overrides,
  };
}

const provider = (overrides: Partial<DarajaConfig> = {}) =>
  createDarajaMobileMoneyProvider({
    config: config(overrides),
    callbackUrl: `https://pay.example.com/v1/billing/webhooks/mpesa/${FAKE_DARAJA.callbackToken}`,
    timeoutMs: TEST_PROVIDER_TIMEOUT_MS,
    timeout: timeouts.timeout,
    now: () => new Date(clock),
  });

const request = () => ({
  reference: newPaymentReference(),
  accountReference: 'PAY1A2B3C4D',
  amount: 1500,
  phone: '254708374149',
  description: 'Wallet top-up',
});

beforeAll(async () => {
  daraja = await startFakeDaraja();
  timeouts.expireOnHang(daraja.server);
});
afterAll(async () => {
  await daraja?.close();
});
beforeEach(() => {
  daraja.behaviour('normal');
  clock = Date.now();
});

describe('Daraja M-Pesa Express provider', () => {
  it('sends an STK push with the Password and Timestamp rules and returns the CheckoutRequestID', async () => {
    const prompt = request();
    const { providerReference } = await provider().requestPayment(prompt);
    expect(providerReference).toBe(daraja.lastPrompt().checkoutRequestId);
    const body = daraja.pushBodies.at(-1);
    const timestamp = darajaTimestamp(new Date(clock));
    expect(body).toEqual({
      BusinessShortCode: FAKE_DARAJA.shortcode,
      Password: Buffer.from(`${FAKE_DARAJA.shortcode}${FAKE_DARAJA.passkey}${timestamp}`).toString('base64'),
      Timestamp: timestamp,
      TransactionType: 'CustomerPayBillOnline',
      Amount: 1500,
      PartyA: '254708374149',
      PartyB: FAKE_DARAJA.shortcode,
      PhoneNumber: '254708374149',
      CallBackURL: `https://pay.example.com/v1/billing/webhooks/mpesa/${FAKE_DARAJA.callbackToken}`,
      AccountReference: 'PAY1A2B3C4D',
      TransactionDesc: 'Wallet top-up',
    });
  });

  it('reuses its OAuth token until shortly before it expires', async () => {
    const mpesa = provider();
    const issuedBefore = daraja.tokensIssued.length;
    await mpesa.requestPayment(request());
    await Promise.all([mpesa.requestPayment(request()), mpesa.requestPayment(request())]);
    expect(daraja.tokensIssued.length).toBe(issuedBefore + 1);
    clock += 3599 * 1000 - 59_000; // within a minute of expiry
    await mpesa.requestPayment(request());
    expect(daraja.tokensIssued.length).toBe(issuedBefore + 2);
  });

  it('renews a token Daraja no longer accepts and retries once', async () => {
    const mpesa = provider();
    await mpesa.requestPayment(request());
    const current = daraja.tokensIssued.at(-1) ?? '';
    daraja.revokedTokens.add(current);
    await mpesa.requestPayment(request());
    expect(daraja.tokensIssued.at(-1)).not.toBe(current);
  });

  it('queries a prompt: still being processed, then the result code', async () => {
    const mpesa = provider();
    const { providerReference } = await mpesa.requestPayment(request());
    expect(await mpesa.queryPayment(providerReference)).toMatchObject({
      status: 'pending',
      eventKey: `daraja:query:${providerReference}:processing`,
    });
    daraja.answer(providerReference, 1032);
    expect(await mpesa.queryPayment(providerReference)).toMatchObject({
      status: 'cancelled',
      reason: 'Request cancelled by user',
    });
    daraja.answer(providerReference, 0);
    expect(await mpesa.queryPayment(providerReference)).toMatchObject({ status: 'succeeded', source: 'daraja_query' });
  });

  it('reads ResultCode 4999 ("still under processing") as pending, and its own 5xx as a failure to answer', async () => {
    const mpesa = provider();
    const { providerReference } = await mpesa.requestPayment(request());
    daraja.answer(providerReference, 4999);
    expect(await mpesa.queryPayment(providerReference)).toMatchObject({
      status: 'pending',
      eventKey: `daraja:query:${providerReference}:processing`,
      payload: expect.objectContaining({ ResultCode: '4999' }),
    });
    daraja.behaviour('server_error');
    await expect(mpesa.queryPayment(providerReference)).rejects.toMatchObject({
      kind: 'server_error',
      message: expect.stringContaining('Internal Server Error'),
    });
  });

  it('tells a push that certainly was not sent (no token could be had) from one Daraja may have acted on', async () => {
    const failure = (work: Promise<unknown>) =>
      work.then(
        () => undefined,
        (error: unknown) => error,
      );
    // A fresh provider has no token yet: fetching it fails, so the push itself was never sent.
    daraja.behaviour('server_error');
    expect(await failure(provider().requestPayment(request()))).toMatchObject({
      kind: 'server_error',
      mayHaveActed: false,
    });
    daraja.behaviour('hang');
    expect(await failure(provider().requestPayment(request()))).toMatchObject({ kind: 'timeout', mayHaveActed: false });

    daraja.behaviour('normal');
    const mpesa = provider();
    await mpesa.requestPayment(request());
    const promptsBefore = daraja.prompts.size;
    daraja.behaviour('hang_after_processing');
    expect(await failure(mpesa.requestPayment(request()))).toMatchObject({ kind: 'timeout', mayHaveActed: true });
    expect(daraja.prompts.size).toBe(promptsBefore + 1); // the prompt went out all the same
    daraja.behaviour('server_error');
    expect(await failure(mpesa.requestPayment(request()))).toMatchObject({ kind: 'server_error', mayHaveActed: true });
  });

  it('reports refusals, bad credentials, 5xx and silence', async () => {
    await expect(provider().requestPayment({ ...request(), amount: 0 })).rejects.toMatchObject({
      name: 'ProviderRejectedError',
      providerMessage: 'Bad Request - Invalid Amount',
    });
    await expect(provider({ consumerSecret: 'wrong' }).requestPayment(request())).rejects.toMatchObject({
      kind: 'credentials_refused',
    });
    await expect(provider({ passkey: 'wrong' }).requestPayment(request())).rejects.toMatchObject({
      providerMessage: 'Bad Request - Invalid Password',
    });
    const mpesa = provider();
    await mpesa.requestPayment(request());
    daraja.behaviour('server_error');
    await expect(mpesa.requestPayment(request())).rejects.toMatchObject({ kind: 'server_error' });
    daraja.behaviour('hang');
    await expect(mpesa.requestPayment(request())).rejects.toMatchObject({ kind: 'timeout' });
  });
});
