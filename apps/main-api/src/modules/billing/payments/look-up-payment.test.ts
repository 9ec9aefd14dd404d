import { beforeAll, describe, expect, it } from 'vitest';
import type { BillingTestApp } from '../../../../test/billing-fixtures.js';
import { authHeader } from '../../../../test/helpers.js';
import { usePayApp } from '../../../../test/pay-fixtures.js';

// GET /v1/billing/payments/:reference: the organization's own payment, and the same 404 for any other.

const suite = usePayApp();
const { pay, getPayment } = suite;
let t: BillingTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('GET /v1/billing/payments/:reference', () => {
  it("shows the organization's own payment", async () => {
    const { reference, checkoutUrl } = (await pay({ method: 'card', amount: 1200 })).json();
    const response = await getPayment(reference);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        reference,
        status: 'pending',
        method: 'card',
        channel: 'card',
        purpose: 'wallet_topup',
        amount: 1200,
        currency: 'KES',
        phone: null,
        paymentMethodId: null,
        subscription: null,
        checkoutUrl,
        failureReason: null,
        receiptNumber: null,
        invoiceNumber: null,
        transferReference: null,
        mpesaReceiptNumber: null,
        createdAt: expect.any(String),
        completedAt: null,
      },
    });
  });

  it("gives the same 404 for another organization's payment, an unknown and a malformed reference", async () => {
    const { reference } = (await pay({ method: 'card', amount: 1200 })).json();
    const outsider = { ...(await authHeader('user_outsider')), 'x-organization-id': t.otherOrganizationId };
    const answers = [
      await getPayment(reference, outsider),
      await getPayment('PAY-6a0c9c52-52c4-4a27-9d1a-0d2a8c3f0b11'),
      await getPayment('nonsense'),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'not_found', error: 'Payment not found' });
    }
  });
});
