import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closedPort } from '#test-timing';
import { asRecord } from '../../../../../test/fake-http-server.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from '../../../../../test/fake-paystack.js';
import { TEST_PROVIDER_TIMEOUT_MS } from '../../../../../test/helpers.js';
import { manualTimeouts } from '../../../../../test/manual-timeouts.js';
import { ProviderRejectedError, ProviderUnavailableError } from '../../payments/index.js';
import { newPaymentReference } from '../../payments/reference.js';
import { createPaystackCardProvider } from './client.js';

let paystack: FakePaystack;
// A request the fake leaves unanswered times out at once; any other gets a generous limit.
const timeouts = manualTimeouts();
const paystackAt = (baseUrl: string, secretKey = FAKE_PAYSTACK_SECRET) =>
  createPaystackCardProvider({ secretKey, baseUrl, timeoutMs: TEST_PROVIDER_TIMEOUT_MS, timeout: timeouts.timeout });
const provider = () => paystackAt(paystack.url);
// Refused by fetch before any connection: port 9 is on the Fetch standard's list of blocked ports.
const BLOCKED_PORT_URL = 'http://127.0.0.1:9';

beforeAll(async () => {
  paystack = await startFakePaystack();
  timeouts.expireOnHang(paystack.server);
});
afterAll(async () => {
  await paystack?.close();
});
beforeEach(() => {
  paystack.behaviour('normal');
});

const checkout = (reference = newPaymentReference()) => ({
  reference,
  amount: 1234,
  email: 'payer@example.com',
  returnUrl: 'https://app.example.com/billing/done',
  metadata: { payment_reference: reference },
});

describe('Paystack card provider', () => {
  it('initializes a transaction in subunits with our reference and returns its authorization_url', async () => {
    const request = checkout();
    const started = await provider().startCheckout(request);
    const sent = asRecord(paystack.server.requests.at(-1)?.body);
    expect(sent).toMatchObject({
      email: 'payer@example.com',
      amount: 123_400,
      currency: 'KES',
      reference: request.reference,
      callback_url: 'https://app.example.com/billing/done',
      channels: ['card'],
    });
    expect(paystack.server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${FAKE_PAYSTACK_SECRET}`);
    const transaction = paystack.transactions.get(request.reference);
    expect(started).toEqual({
      checkoutUrl: `https://checkout.paystack.com/${transaction?.accessCode}`,
      providerReference: request.reference,
    });
  });

  it('looks a transaction up by reference: pending until paid, then a success in whole KES with the card', async () => {
    const request = checkout();
    await provider().startCheckout(request);
    expect((await provider().lookUp(request.reference))?.status).toBe('pending');
    paystack.completeCheckout(request.reference);
    const outcome = await provider().lookUp(request.reference);
    expect(outcome).toMatchObject({
      status: 'succeeded',
      paid: { amount: 1234, currency: 'KES' },
      source: 'paystack_verify',
      reusableCard: {
        last4: '4081',
        signature: 'SIG_fake_visa_4081',
        customerEmail: 'payer@example.com',
        expMonth: 12,
        expYear: 2030,
      },
    });
    expect(outcome?.reusableCard?.authorizationCode).toMatch(/^AUTH_/);
    expect(await provider().lookUp(newPaymentReference())).toBeUndefined();
  });

  it('charges an authorization: approved and declined', async () => {
    paystack.approvedAuthorizations.add('AUTH_approved');
    const approved = await provider().chargeSavedCard({
      reference: newPaymentReference(),
      amount: 500,
      email: 'payer@example.com',
      authorizationCode: 'AUTH_approved',
    });
    expect(asRecord(paystack.server.requests.at(-1)?.body)).toMatchObject({
      amount: 50_000,
      authorization_code: 'AUTH_approved',
    });
    expect(approved).toMatchObject({ status: 'succeeded', paid: { amount: 500, currency: 'KES' } });
    const declined = await provider().chargeSavedCard({
      reference: newPaymentReference(),
      amount: 500,
      email: 'payer@example.com',
      authorizationCode: 'AUTH_unknown',
    });
    expect(declined).toMatchObject({ status: 'failed', reason: 'Declined' });
  });

  it('reports a refusal (4xx) as rejected and our bad key as unavailable', async () => {
    const request = checkout();
    await provider().startCheckout(request);
    await expect(provider().startCheckout(request)).rejects.toMatchObject({
      name: 'ProviderRejectedError',
      status: 400,
      providerMessage: 'Duplicate Transaction Reference',
    });
    const wrongKey = paystackAt(paystack.url, 'sk_test_wrong');
    const error = await wrongKey.startCheckout(checkout()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ kind: 'credentials_refused' });
    expect(error).not.toBeInstanceOf(ProviderRejectedError);
  });

  it('reports a 5xx, a silence past the timeout and an unreachable server as unavailable', async () => {
    paystack.behaviour('server_error');
    await expect(provider().startCheckout(checkout())).rejects.toMatchObject({ kind: 'server_error' });
    paystack.behaviour('hang');
    await expect(provider().startCheckout(checkout())).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringContaining(`no answer within ${TEST_PROVIDER_TIMEOUT_MS} ms`),
    });
    expect(timeouts.started.at(-1)).toEqual({
      provider: 'paystack',
      url: `${paystack.url}/transaction/initialize`,
      ms: TEST_PROVIDER_TIMEOUT_MS,
    });
    const nowhere = paystackAt(`http://127.0.0.1:${await closedPort()}`);
    await expect(nowhere.startCheckout(checkout())).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('tells a request that certainly never reached Paystack from one it may have acted on', async () => {
    const charge = () =>
      provider().chargeSavedCard({
        reference: newPaymentReference(),
        amount: 500,
        email: 'payer@example.com',
        authorizationCode: 'AUTH_x',
      });
    const failure = (work: Promise<unknown>) =>
      work.then(
        () => undefined,
        (error: unknown) => error,
      );
    for (const nowhere of [paystackAt(`http://127.0.0.1:${await closedPort()}`), paystackAt(BLOCKED_PORT_URL)]) {
      expect(await failure(nowhere.startCheckout(checkout()))).toMatchObject({
        kind: 'unreachable',
        mayHaveActed: false,
      });
    }
    const wrongKey = paystackAt(paystack.url, 'sk_test_wrong');
    expect(await failure(wrongKey.startCheckout(checkout()))).toMatchObject({
      kind: 'credentials_refused',
      mayHaveActed: false,
    });

    for (const [behaviour, kind] of [
      ['hang', 'timeout'],
      ['hang_after_processing', 'timeout'],
      ['reset_after_processing', 'connection_lost'],
      ['server_error', 'server_error'],
      ['server_error_after_processing', 'server_error'],
    ] as const) {
      paystack.behaviour(behaviour);
      const error = await failure(charge());
      expect(error, behaviour).toBeInstanceOf(ProviderUnavailableError);
      expect(error, behaviour).toMatchObject({ kind, mayHaveActed: true });
    }
  });

  it('answers a lookup of a reference Paystack never heard of with undefined, and a failed lookup with an error', async () => {
    const unknown = newPaymentReference();
    expect(await provider().lookUp(unknown)).toBeUndefined();
    expect(paystack.server.requests.at(-1)?.url).toBe(`/transaction/verify/${unknown}`);
    // A lookup that fails tells nothing about the transaction: it is not "never happened".
    paystack.behaviour('server_error');
    await expect(provider().lookUp(unknown)).rejects.toMatchObject({ kind: 'server_error' });
  });
});
