import type { PaymentChannel } from '@platform/db';
import { type ConfigProblem, httpUrl } from '@platform/http';
import { type Static, Type } from '@sinclair/typebox';

/** A KRA PIN as organizations.kra_pin holds it: a letter, nine digits, a letter, upper case. */
const KRA_PIN_PATTERN = '^[A-Z][0-9]{9}[A-Z]$';

/** M-Pesa's own ceiling for one customer-to-business payment, in KES. */
const MPESA_TRANSACTION_LIMIT = 250_000;

/**
 * Environment variables of payments; merged into main-api's environment schema (config.ts). A provider is
 * used when its credentials are set; without them the sandbox provider stands in for it, unless
 * PAYMENTS_SANDBOX_ALLOWED is false (production): then missing credentials stop the service at start, so a
 * deployment can never take "payments" that a sandbox button approves.
 */
export const PaymentsEnvSchema = Type.Object({
  PAYSTACK_SECRET_KEY: Type.Optional(Type.String({ minLength: 1 })),
  PAYSTACK_BASE_URL: Type.String({ minLength: 1, default: 'https://api.paystack.co' }),
  DARAJA_CONSUMER_KEY: Type.Optional(Type.String({ minLength: 1 })),
  DARAJA_CONSUMER_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  DARAJA_SHORTCODE: Type.Optional(Type.String({ pattern: '^[0-9]{5,7}$' })),
  DARAJA_PASSKEY: Type.Optional(Type.String({ minLength: 1 })),
  DARAJA_BASE_URL: Type.String({ minLength: 1, default: 'https://api.safaricom.co.ke' }),
  DARAJA_TRANSACTION_TYPE: Type.Union([Type.Literal('CustomerPayBillOnline'), Type.Literal('CustomerBuyGoodsOnline')], {
    default: 'CustomerPayBillOnline',
  }),
  DARAJA_PARTY_B: Type.Optional(Type.String({ pattern: '^[0-9]{5,7}$' })),
  DARAJA_CALLBACK_TOKEN: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{32,128}$' })),
  PAYMENT_RETURN_URL: Type.Optional(Type.String({ minLength: 1 })),
  MAX_AMOUNT_CARD: Type.Integer({ minimum: 1, default: 1_000_000 }),
  MAX_AMOUNT_MOBILE_MONEY: Type.Integer({ minimum: 1, maximum: MPESA_TRANSACTION_LIMIT, default: 150_000 }),
  PROVIDER_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 15_000 }),
  PAYMENT_RECONCILE_INTERVAL_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  MOBILE_MONEY_CHECK_AFTER_MS: Type.Integer({ minimum: 0, default: 2 * 60_000 }),
  MOBILE_MONEY_EXPIRE_AFTER_MS: Type.Integer({ minimum: 0, default: 15 * 60_000 }),
  CARD_CHECKOUT_EXPIRE_AFTER_MS: Type.Integer({ minimum: 0, default: 60 * 60_000 }),
  SANDBOX_STK_DELAY_MS: Type.Integer({ minimum: 0, default: 3_000 }),
  /**
   * Signs the sandbox checkout's form tokens; every instance needs the same one. Required with DATABASE_URL
   * while the sandbox checkout is in use; without DATABASE_URL (embedded database: one process) random per process.
   */
  SANDBOX_CHECKOUT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  RENEWAL_INTERVAL_MS: Type.Integer({ minimum: 0, default: 60_000 }),
  PAYMENTS_SANDBOX_ALLOWED: Type.Boolean({ default: true }),
  /**
   * The seller named on receipts: its registered name, address and KRA PIN. Required when PAYMENTS_SANDBOX_ALLOWED is
   * false (real money); otherwise a sandbox seller stands in (docs/decisions.md#billing-documents).
   */
  SELLER_NAME: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  SELLER_ADDRESS: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  SELLER_KRA_PIN: Type.Optional(Type.String({ pattern: KRA_PIN_PATTERN })),
  /**
   * The seller's bank account that bank transfers are paid into, named on every invoice: all four, or none (the
   * sandbox's plainly fake account, only while PAYMENTS_SANDBOX_ALLOWED is true; docs/decisions.md#bank-transfers).
   */
  SELLER_BANK_NAME: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  SELLER_BANK_ACCOUNT_NAME: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  SELLER_BANK_ACCOUNT_NUMBER: Type.Optional(Type.String({ pattern: '^[0-9A-Z]{5,34}$' })),
  SELLER_BANK_BRANCH: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  MAX_AMOUNT_BANK_TRANSFER: Type.Integer({ minimum: 1, default: 2_000_000_000 }),
  BANK_TRANSFER_EXPIRY_INTERVAL_MS: Type.Integer({ minimum: 0, default: 10 * 60_000 }),
});

export type PaymentsEnv = Static<typeof PaymentsEnvSchema>;

type CardProviderConfig =
  | { kind: 'paystack'; secretKey: string; baseUrl: string }
  /** `formSecret` signs the sandbox checkout's form tokens; unset (embedded database only), each process makes one. */
  | { kind: 'sandbox'; formSecret?: string };

export interface DarajaConfig {
  kind: 'daraja';
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
  baseUrl: string;
  transactionType: 'CustomerPayBillOnline' | 'CustomerBuyGoodsOnline';
  /** Who receives the money: the shortcode for a paybill, the till number for buy goods. */
  partyB: string;
  /** The secret path segment of the callback URL. */
  callbackToken: string;
}

type MobileMoneyProviderConfig = DarajaConfig | { kind: 'sandbox'; stkDelayMs: number };

/** Who sells: the seller every receipt names. */
export interface Seller {
  name: string;
  address: string;
  kraPin: string;
}

/** The seller of the local start and tests, where the sandbox takes the payments: plainly not a real one. */
const SANDBOX_SELLER: Seller = {
  name: 'Platform Sandbox Seller',
  address: 'Sandbox address, Nairobi, Kenya',
  kraPin: 'P000000000A',
};

/** The bank account bank transfers are paid into, as invoices name it. */
export interface SellerBankAccount {
  bankName: string;
  accountName: string;
  accountNumber: string;
  branch: string;
  /** The sandbox's account, no real one: invoices say so. */
  sandbox: boolean;
}

/** The account of the local start and tests: plainly not a real one. */
const SANDBOX_BANK_ACCOUNT: SellerBankAccount = {
  bankName: 'Sandbox Bank',
  accountName: 'Platform Sandbox Seller',
  accountNumber: '0000000000',
  branch: 'Sandbox branch, Nairobi',
  sandbox: true,
};

/** Payments as the code uses them. */
export interface PaymentsConfig {
  card: CardProviderConfig;
  mobileMoney: MobileMoneyProviderConfig;
  /** Where the payer's browser goes after the hosted card checkout (`?reference=` is added). */
  returnUrl: string;
  /** Largest amount per payment, by what moves the money, in KES. */
  maxAmount: Record<PaymentChannel, number>;
  providerTimeoutMs: number;
  reconciliation: {
    /** How often this instance runs the job; 0: never (another instance does). */
    intervalMs: number;
    mobileMoneyCheckAfterMs: number;
    mobileMoneyExpireAfterMs: number;
    cardCheckoutExpireAfterMs: number;
  };
  /** How often this instance runs the mail subscription renewal job; 0: never (another instance does). */
  renewalIntervalMs: number;
  /** The seller named on receipts and invoices. */
  seller: Seller;
  bankTransfer: {
    /** Where bank transfers are paid. */
    account: SellerBankAccount;
    /** How often this instance expires bank transfers left unconfirmed 30 days; 0: never (another instance does). */
    expiryIntervalMs: number;
  };
}

const DARAJA_CREDENTIALS = [
  'DARAJA_CONSUMER_KEY',
  'DARAJA_CONSUMER_SECRET',
  'DARAJA_SHORTCODE',
  'DARAJA_PASSKEY',
] as const;

/**
 * The payments section of main-api's config; problems are added to `problems`. `deployed`: on an external
 * database (DATABASE_URL), where instances must share the sandbox checkout's secret.
 */
export function paymentsConfigFrom(
  values: PaymentsEnv,
  publicUrl: string | undefined,
  problems: ConfigProblem[],
  { deployed }: { deployed: boolean },
): PaymentsConfig | undefined {
  const card = cardProvider(values, deployed, problems);
  const mobileMoney = mobileMoneyProvider(values, problems);
  const seller = sellerOf(values, problems);
  const bankAccount = bankAccountOf(values, problems);
  const returnUrl =
    values.PAYMENT_RETURN_URL === undefined
      ? publicUrl === undefined
        ? undefined
        : `${publicUrl}/v1/billing/checkout/complete`
      : httpUrl('PAYMENT_RETURN_URL', values.PAYMENT_RETURN_URL, problems);
  if (
    card === undefined ||
    mobileMoney === undefined ||
    returnUrl === undefined ||
    seller === undefined ||
    bankAccount === undefined
  ) {
    return undefined;
  }
  return {
    card,
    mobileMoney,
    returnUrl,
    maxAmount: {
      card: values.MAX_AMOUNT_CARD,
      mobile_money: values.MAX_AMOUNT_MOBILE_MONEY,
      bank_transfer: values.MAX_AMOUNT_BANK_TRANSFER,
    },
    providerTimeoutMs: values.PROVIDER_TIMEOUT_MS,
    reconciliation: {
      intervalMs: values.PAYMENT_RECONCILE_INTERVAL_MS,
      mobileMoneyCheckAfterMs: values.MOBILE_MONEY_CHECK_AFTER_MS,
      mobileMoneyExpireAfterMs: values.MOBILE_MONEY_EXPIRE_AFTER_MS,
      cardCheckoutExpireAfterMs: values.CARD_CHECKOUT_EXPIRE_AFTER_MS,
    },
    renewalIntervalMs: values.RENEWAL_INTERVAL_MS,
    seller,
    bankTransfer: { account: bankAccount, expiryIntervalMs: values.BANK_TRANSFER_EXPIRY_INTERVAL_MS },
  };
}

const BANK_VARIABLES = [
  'SELLER_BANK_NAME',
  'SELLER_BANK_ACCOUNT_NAME',
  'SELLER_BANK_ACCOUNT_NUMBER',
  'SELLER_BANK_BRANCH',
] as const;

/**
 * The account invoices ask bank transfers to be paid into: all four settings, or none. None is the sandbox's account
 * while PAYMENTS_SANDBOX_ALLOWED is true; with real money an invoice naming a fake account would send a customer's
 * money nowhere, so all four are required then. A partial set is refused either way: an invoice mixing a real bank
 * with a sandbox account number is worse than none (docs/decisions.md#bank-transfers).
 */
function bankAccountOf(values: PaymentsEnv, problems: ConfigProblem[]): SellerBankAccount | undefined {
  const set = BANK_VARIABLES.filter((name) => values[name] !== undefined);
  if (set.length === 0 && values.PAYMENTS_SANDBOX_ALLOWED) return SANDBOX_BANK_ACCOUNT;
  const why = set.length === 0 ? 'PAYMENTS_SANDBOX_ALLOWED is false' : `any of ${BANK_VARIABLES.join(', ')} is set`;
  for (const name of BANK_VARIABLES.filter((variable) => values[variable] === undefined)) {
    problems.push({
      name,
      message: `${name} is required when ${why}: invoices name the bank account transfers are paid into`,
    });
  }
  const { SELLER_BANK_NAME: bankName, SELLER_BANK_ACCOUNT_NAME: accountName } = values;
  const { SELLER_BANK_ACCOUNT_NUMBER: accountNumber, SELLER_BANK_BRANCH: branch } = values;
  if (bankName === undefined || accountName === undefined || accountNumber === undefined || branch === undefined) {
    return undefined;
  }
  return { bankName, accountName, accountNumber, branch, sandbox: false };
}

const SELLER_VARIABLES = ['SELLER_NAME', 'SELLER_ADDRESS', 'SELLER_KRA_PIN'] as const;

/**
 * The seller receipts name. With real money only (PAYMENTS_SANDBOX_ALLOWED false) every part must be set: a receipt
 * naming the sandbox seller for a real payment would be worthless. With the sandbox allowed, each unset part is the
 * sandbox seller's.
 */
function sellerOf(values: PaymentsEnv, problems: ConfigProblem[]): Seller | undefined {
  if (!values.PAYMENTS_SANDBOX_ALLOWED) {
    const missing = SELLER_VARIABLES.filter((name) => values[name] === undefined);
    for (const name of missing) {
      problems.push({
        name,
        message: `${name} is required when PAYMENTS_SANDBOX_ALLOWED is false: receipts name the seller (its name, address and KRA PIN)`,
      });
    }
    if (missing.length > 0) return undefined;
  }
  return {
    name: values.SELLER_NAME ?? SANDBOX_SELLER.name,
    address: values.SELLER_ADDRESS ?? SANDBOX_SELLER.address,
    kraPin: values.SELLER_KRA_PIN ?? SANDBOX_SELLER.kraPin,
  };
}

function cardProvider(
  values: PaymentsEnv,
  deployed: boolean,
  problems: ConfigProblem[],
): CardProviderConfig | undefined {
  if (values.PAYSTACK_SECRET_KEY === undefined) {
    if (!values.PAYMENTS_SANDBOX_ALLOWED) {
      problems.push({
        name: 'PAYSTACK_SECRET_KEY',
        message: 'PAYSTACK_SECRET_KEY is required when PAYMENTS_SANDBOX_ALLOWED is false',
      });
      return undefined;
    }
    if (values.SANDBOX_CHECKOUT_SECRET !== undefined)
      return { kind: 'sandbox', formSecret: values.SANDBOX_CHECKOUT_SECRET };
    if (!deployed) return { kind: 'sandbox' };
    problems.push({
      name: 'SANDBOX_CHECKOUT_SECRET',
      message:
        'SANDBOX_CHECKOUT_SECRET is required when DATABASE_URL is set and the sandbox card checkout is in use ' +
        '(no PAYSTACK_SECRET_KEY, PAYMENTS_SANDBOX_ALLOWED true): 32+ characters, the same on every instance ' +
        "(a random one per process breaks the sandbox checkout's forms behind a load balancer)",
    });
    return undefined;
  }
  const baseUrl = httpUrl('PAYSTACK_BASE_URL', values.PAYSTACK_BASE_URL, problems);
  return baseUrl === undefined ? undefined : { kind: 'paystack', secretKey: values.PAYSTACK_SECRET_KEY, baseUrl };
}

function mobileMoneyProvider(values: PaymentsEnv, problems: ConfigProblem[]): MobileMoneyProviderConfig | undefined {
  const set = DARAJA_CREDENTIALS.filter((name) => values[name] !== undefined);
  if (set.length === 0 && values.PAYMENTS_SANDBOX_ALLOWED)
    return { kind: 'sandbox', stkDelayMs: values.SANDBOX_STK_DELAY_MS };
  const missing = DARAJA_CREDENTIALS.filter((name) => values[name] === undefined);
  for (const name of missing) {
    const why =
      set.length === 0 ? 'PAYMENTS_SANDBOX_ALLOWED is false' : `any of ${DARAJA_CREDENTIALS.join(', ')} is set`;
    problems.push({ name, message: `${name} is required when ${why}` });
  }
  if (values.DARAJA_CALLBACK_TOKEN === undefined) {
    problems.push({
      name: 'DARAJA_CALLBACK_TOKEN',
      message: 'DARAJA_CALLBACK_TOKEN (32-128 letters, digits, - or _) is required with the Daraja credentials',
    });
  }
  const baseUrl = httpUrl('DARAJA_BASE_URL', values.DARAJA_BASE_URL, problems);
  const { DARAJA_CONSUMER_KEY: consumerKey, DARAJA_CONSUMER_SECRET: consumerSecret } = values;
  const { DARAJA_SHORTCODE: shortcode, DARAJA_PASSKEY: passkey, DARAJA_CALLBACK_TOKEN: callbackToken } = values;
  if (
    consumerKey === undefined ||
    consumerSecret === undefined ||
    shortcode === undefined ||
    passkey === undefined ||
    callbackToken === undefined ||
    baseUrl === undefined
  ) {
    return undefined;
  }
  return {
    kind: 'daraja',
    consumerKey,
    consumerSecret,
    shortcode,
    passkey,
    baseUrl,
    transactionType: values.DARAJA_TRANSACTION_TYPE,
    partyB: values.DARAJA_PARTY_B ?? shortcode,
    callbackToken,
  };
}
