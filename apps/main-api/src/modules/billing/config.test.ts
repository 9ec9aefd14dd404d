import { ConfigError } from '@platform/http';
import { describe, expect, it } from 'vitest';
import { FAKE_DARAJA, fakeDarajaEnv } from '../../../test/fake-daraja.js';
import { testConfig } from '../../../test/helpers.js';

function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    testConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('The configuration was accepted');
}

describe('payments configuration', () => {
  it('uses the sandbox for both methods without credentials, with the documented defaults', () => {
    const { payments } = testConfig();
    expect(payments).toEqual({
      card: { kind: 'sandbox' },
      mobileMoney: { kind: 'sandbox', stkDelayMs: 3000 },
      returnUrl: 'http://main-api.test/v1/billing/checkout/complete',
      maxAmount: { card: 1_000_000, mobile_money: 150_000, bank_transfer: 2_000_000_000 },
      providerTimeoutMs: 15_000,
      reconciliation: {
        intervalMs: 30_000,
        mobileMoneyCheckAfterMs: 120_000,
        mobileMoneyExpireAfterMs: 900_000,
        cardCheckoutExpireAfterMs: 3_600_000,
      },
      renewalIntervalMs: 60_000,
      seller: { name: 'Platform Sandbox Seller', address: 'Sandbox address, Nairobi, Kenya', kraPin: 'P000000000A' },
      bankTransfer: {
        account: {
          bankName: 'Sandbox Bank',
          accountName: 'Platform Sandbox Seller',
          accountNumber: '0000000000',
          branch: 'Sandbox branch, Nairobi',
          sandbox: true,
        },
        expiryIntervalMs: 600_000,
      },
    });
  });

  const BANK = {
    SELLER_BANK_NAME: 'Kenya Commercial Bank',
    SELLER_BANK_ACCOUNT_NAME: 'Acme Mail Ltd',
    SELLER_BANK_ACCOUNT_NUMBER: '1234567890',
    SELLER_BANK_BRANCH: 'Moi Avenue',
  };

  it('names the configured bank account on invoices: all four settings or none, an account number of its form', () => {
    expect(testConfig(BANK).payments.bankTransfer.account).toEqual({
      bankName: 'Kenya Commercial Bank',
      accountName: 'Acme Mail Ltd',
      accountNumber: '1234567890',
      branch: 'Moi Avenue',
      sandbox: false,
    });
    const partial = problemsOf({ SELLER_BANK_NAME: 'Kenya Commercial Bank', SELLER_BANK_BRANCH: 'Moi Avenue' });
    for (const name of ['SELLER_BANK_ACCOUNT_NAME', 'SELLER_BANK_ACCOUNT_NUMBER']) {
      expect(partial).toContain(`${name} is required when any of SELLER_BANK_NAME`);
    }
    expect(partial).not.toContain('SELLER_BANK_NAME is required');
    expect(problemsOf({ ...BANK, SELLER_BANK_ACCOUNT_NUMBER: '1234 5678' })).toContain('SELLER_BANK_ACCOUNT_NUMBER');
    expect(problemsOf({ ...BANK, SELLER_BANK_NAME: 'x'.repeat(101) })).toContain('SELLER_BANK_NAME');
    expect(problemsOf({ MAX_AMOUNT_BANK_TRANSFER: '0' })).toContain('MAX_AMOUNT_BANK_TRANSFER');
    expect(testConfig({ BANK_TRANSFER_EXPIRY_INTERVAL_MS: '0' }).payments.bankTransfer.expiryIntervalMs).toBe(0);
  });

  it('names the configured seller on receipts, and refuses a KRA PIN of another form', () => {
    const seller = {
      SELLER_NAME: 'Acme Mail Ltd',
      SELLER_ADDRESS: 'Moi Avenue 1, Nairobi',
      SELLER_KRA_PIN: 'P051234567Q',
    };
    expect(testConfig(seller).payments.seller).toEqual({
      name: 'Acme Mail Ltd',
      address: 'Moi Avenue 1, Nairobi',
      kraPin: 'P051234567Q',
    });
    expect(problemsOf({ ...seller, SELLER_KRA_PIN: 'p051234567q' })).toContain('SELLER_KRA_PIN');
  });

  it('needs the seller named when real money is taken (no sandbox)', () => {
    const real = {
      PAYMENTS_SANDBOX_ALLOWED: 'false',
      PAYSTACK_SECRET_KEY: 'sk_live_x',
      ...fakeDarajaEnv('https://daraja.example'),
    };
    // An empty variable is an unset one (compose passes unset ones as empty).
    const problems = problemsOf({ ...real, SELLER_NAME: 'Acme Mail Ltd', SELLER_ADDRESS: '' });
    expect(problems).not.toContain('SELLER_NAME');
    for (const name of ['SELLER_ADDRESS', 'SELLER_KRA_PIN']) {
      expect(problems).toContain(`${name} is required when PAYMENTS_SANDBOX_ALLOWED is false`);
    }
    // An invoice naming the sandbox's account would send real money nowhere.
    for (const name of Object.keys(BANK)) {
      expect(problems).toContain(`${name} is required when PAYMENTS_SANDBOX_ALLOWED is false`);
    }
  });

  it('reads how often the renewal job runs, 0 turning it off', () => {
    expect(testConfig({ RENEWAL_INTERVAL_MS: '0' }).payments.renewalIntervalMs).toBe(0);
    expect(problemsOf({ RENEWAL_INTERVAL_MS: '-1' })).toContain('RENEWAL_INTERVAL_MS');
  });

  it('uses Paystack and Daraja when their credentials are set', () => {
    const { payments } = testConfig({
      PAYSTACK_SECRET_KEY: 'sk_live_x',
      ...fakeDarajaEnv('https://api.safaricom.co.ke/'),
      DARAJA_TRANSACTION_TYPE: 'CustomerBuyGoodsOnline',
      DARAJA_PARTY_B: '654321',
      PAYMENT_RETURN_URL: 'https://app.example.com/billing/done',
    });
    expect(payments.card).toEqual({ kind: 'paystack', secretKey: 'sk_live_x', baseUrl: 'https://api.paystack.co' });
    expect(payments.mobileMoney).toEqual({
      kind: 'daraja',
      consumerKey: FAKE_DARAJA.consumerKey,
      consumerSecret: FAKE_DARAJA.consumerSecret,
      shortcode: FAKE_DARAJA.shortcode,
      passkey: FAKE_DARAJA.passkey,
      baseUrl: 'https://api.safaricom.co.ke',
      transactionType: 'CustomerBuyGoodsOnline',
      partyB: '654321',
      callbackToken: FAKE_DARAJA.callbackToken,
    });
    expect(payments.returnUrl).toBe('https://app.example.com/billing/done');
  });

  it('refuses to start without provider credentials when the sandbox is not allowed (production)', () => {
    const problems = problemsOf({ PAYMENTS_SANDBOX_ALLOWED: 'false' });
    expect(problems).toContain('PAYSTACK_SECRET_KEY is required when PAYMENTS_SANDBOX_ALLOWED is false');
    for (const name of ['DARAJA_CONSUMER_KEY', 'DARAJA_CONSUMER_SECRET', 'DARAJA_SHORTCODE', 'DARAJA_PASSKEY']) {
      expect(problems).toContain(`${name} is required when PAYMENTS_SANDBOX_ALLOWED is false`);
    }
    expect(problems).toContain('DARAJA_CALLBACK_TOKEN');
  });

  it('runs the real providers alone when the sandbox is not allowed', () => {
    const { payments } = testConfig({
      PAYMENTS_SANDBOX_ALLOWED: 'false',
      SELLER_NAME: 'Acme Mail Ltd',
      SELLER_ADDRESS: 'Moi Avenue 1, Nairobi',
      SELLER_KRA_PIN: 'P051234567Q',
      ...BANK,
      PAYSTACK_SECRET_KEY: 'sk_live_x',
      ...fakeDarajaEnv('https://daraja.example'),
    });
    expect(payments.bankTransfer.account.sandbox).toBe(false);
    expect(payments.card.kind).toBe('paystack');
    expect(payments.mobileMoney.kind).toBe('daraja');
  });

  it('names every missing Daraja setting when only some are set', () => {
    const message = problemsOf({ DARAJA_CONSUMER_KEY: 'key', DARAJA_SHORTCODE: '174379' });
    expect(message).toContain('DARAJA_CONSUMER_SECRET is required');
    expect(message).toContain('DARAJA_PASSKEY is required');
    expect(message).toContain('DARAJA_CALLBACK_TOKEN');
    expect(message).not.toContain('DARAJA_CONSUMER_KEY is required');
  });

  it("refuses an M-Pesa limit above M-Pesa's own, a short callback token and a bad return URL", () => {
    expect(problemsOf({ MAX_AMOUNT_MOBILE_MONEY: '250001' })).toContain('MAX_AMOUNT_MOBILE_MONEY');
    expect(problemsOf({ ...fakeDarajaEnv('https://x.example'), DARAJA_CALLBACK_TOKEN: 'short' })).toContain(
      'DARAJA_CALLBACK_TOKEN',
    );
    expect(problemsOf({ PAYMENT_RETURN_URL: 'javascript:alert(1)' })).toContain('PAYMENT_RETURN_URL');
  });
});
