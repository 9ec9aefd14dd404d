// Allowed values of the text columns that carry a CHECK constraint. The schema builds its constraints from
// these lists, so the database and the TypeScript types cannot drift apart.

export const kycStatuses = ['unverified', 'pending', 'verified', 'rejected'] as const;
export type KycStatus = (typeof kycStatuses)[number];

/**
 * A member's role in an organization (docs/decisions.md#roles): `owner` may do everything, `admin` everything but
 * owners and the organization's end, `developer` API keys and webhooks, `billing` payments and subscriptions,
 * `member` reads. `reviewer` and `finance` are roles of the platform's own organization only, each reading like
 * `member`: a reviewer decides verification sessions sent to manual review (docs/decisions.md#manual-review), finance
 * confirms the bank transfers customers make (docs/decisions.md#finance-role). The role policy in main-api
 * (modules/organizations/policy.ts) maps roles to permissions.
 */
export const membershipRoles = ['owner', 'admin', 'developer', 'billing', 'member', 'reviewer', 'finance'] as const;
export type MembershipRole = (typeof membershipRoles)[number];

/** pending -> accepted | revoked; a pending invitation past its `expiresAt` can no longer be accepted. */
export const invitationStatuses = ['pending', 'accepted', 'revoked'] as const;
export type InvitationStatus = (typeof invitationStatuses)[number];

export const apiKeyEnvironments = ['live', 'test'] as const;
export type ApiKeyEnvironment = (typeof apiKeyEnvironments)[number];

/** The longest address an organization may give, in characters, a CHECK too (docs/decisions.md#organization-address-and-billing-email). */
export const ORGANIZATION_ADDRESS_MAX_LENGTH = 200;
/** The longest billing email address (RFC 5321's path limit less its brackets), a CHECK too. */
export const BILLING_EMAIL_MAX_LENGTH = 254;

/** How many allowed origins an organization may have per environment, a CHECK too (docs/decisions.md#allowed-origins). */
export const MAX_ALLOWED_ORIGINS = 10;

/**
 * Who an API key acts for: an organization in one environment. Sessions, folders and the wallet that pays for them
 * belong to it, and a key never reaches another's (docs/decisions.md#folders-per-environment).
 */
export interface ApiKeyOwner {
  organizationId: string;
  environment: ApiKeyEnvironment;
}

export const notificationTypes = ['info', 'warning', 'success', 'error'] as const;
export type NotificationType = (typeof notificationTypes)[number];

export const mailPlans = ['core', 'growth', 'scale'] as const;
export type MailPlan = (typeof mailPlans)[number];

export const billingCycles = ['monthly', 'yearly'] as const;
export type BillingCycle = (typeof billingCycles)[number];

/** active and past_due subscriptions still grant their plan; canceled and expired ones do not. */
export const mailSubscriptionStatuses = ['active', 'past_due', 'canceled', 'expired'] as const;
export type MailSubscriptionStatus = (typeof mailSubscriptionStatuses)[number];

/**
 * The reminders of a coming renewal, each sent once per renewal (docs/decisions.md#renewal-reminders): 7 days and
 * 1 day before it.
 */
export const renewalReminderKinds = ['7_days', '1_day'] as const;
export type RenewalReminderKind = (typeof renewalReminderKinds)[number];

/**
 * A change of a mail subscription: of plan, seats or cycle (`upgrade` when it costs more, `downgrade` when it
 * left a credit, before downgrades waited for the period end, `change` when the price is the same), or the move to
 * the next period (`renewal`, which also applies a scheduled downgrade).
 */
export const mailSubscriptionChangeKinds = ['upgrade', 'downgrade', 'change', 'renewal'] as const;
export type MailSubscriptionChangeKind = (typeof mailSubscriptionChangeKinds)[number];

/**
 * charging (claimed: its card is being charged) -> applied | failed | superseded. `superseded`: the charge
 * succeeded but the subscription had changed meanwhile, so the money went to the credit balance instead.
 */
export const mailSubscriptionChangeStatuses = ['charging', 'applied', 'failed', 'superseded'] as const;
export type MailSubscriptionChangeStatus = (typeof mailSubscriptionChangeStatuses)[number];

/**
 * Why an organization's credit balance moved. Credit comes from a second purchase paid while a subscription was
 * active, or a charge that could not be applied (and came from downgrades made before they waited for the period
 * end: docs/decisions.md#scheduled-downgrades); it is used by upgrades and renewals.
 */
export const creditBalanceReasons = [
  'downgrade',
  'duplicate_purchase',
  'unapplied_charge',
  'upgrade',
  'renewal',
  /** What bank transfers brought in beyond their invoice's amount (docs/decisions.md#split-bank-transfers). */
  'transfer_excess',
] as const;
export type CreditBalanceReason = (typeof creditBalanceReasons)[number];

export const idempotencyRecordStatuses = ['in_progress', 'completed'] as const;
export type IdempotencyRecordStatus = (typeof idempotencyRecordStatuses)[number];

/** Movements of money through a wallet; each is one balanced ledger transaction. */
export const ledgerTransactionKinds = ['top_up', 'hold', 'capture', 'release'] as const;
export type LedgerTransactionKind = (typeof ledgerTransactionKinds)[number];

/**
 * Ledger accounts. `available` and `held` belong to a wallet; `funding` is where top-ups come from and
 * `revenue` where captured holds go (one per environment, shared by every wallet).
 */
export const ledgerAccounts = ['available', 'held', 'funding', 'revenue'] as const;
export type LedgerAccount = (typeof ledgerAccounts)[number];

export const verificationTypes = ['kyc', 'kyb'] as const;
export type VerificationType = (typeof verificationTypes)[number];

export const verificationStatuses = [
  'pending',
  'processing',
  'requires_input',
  'verified',
  'rejected',
  'expired',
  'canceled',
] as const;
export type VerificationStatus = (typeof verificationStatuses)[number];

/**
 * The languages of the hosted verification page and its consent text (`locale` on session create, `?lang=` on the
 * page): English and Kiswahili.
 */
export const sessionLocales = ['en', 'sw'] as const;
export type SessionLocale = (typeof sessionLocales)[number];

/**
 * The codes a session's lastError may carry, for the reasons the service itself ends a session for: the person
 * declined the consent notice on the hosted page (docs/decisions.md#declined-consent).
 */
export const sessionErrorCodes = ['consent_declined'] as const;
export type SessionErrorCode = (typeof sessionErrorCodes)[number];

/**
 * What decides a session once it is submitted (docs/decisions.md#decision-sources): `sandbox`, the hosted page's
 * buttons (test sessions; live ones only for local use); `manual`, a reviewer of the platform's staff; `smile_id`,
 * Smile ID's automated checks (docs/decisions.md#automated-decisions).
 */
export const decisionSourceKinds = ['sandbox', 'manual', 'smile_id'] as const;
export type DecisionSourceKind = (typeof decisionSourceKinds)[number];

/** The automated providers a session's checks are sent to (docs/decisions.md#automated-decisions). */
export const verificationProviders = ['smile_id'] as const;
export type VerificationProvider = (typeof verificationProviders)[number];

/**
 * A provider job: `creating` (written with the submission; the provider has not taken it yet, retried until it
 * does), `submitted` (the provider has it; waiting for its result), `completed` (its result was applied once),
 * `failed` (given up: the session went to manual review). The first two are open: a session has at most one.
 */
export const providerJobStatuses = ['creating', 'submitted', 'completed', 'failed'] as const;
export type ProviderJobStatus = (typeof providerJobStatuses)[number];

/**
 * What a provider job asks (docs/decisions.md#verification-checks): Smile ID's Document Verification (job type 6),
 * Business Verification (7), Enhanced KYC (5: the ID number in the registry), Biometric KYC (1: the selfie against
 * the registry photo) and AML screening. Jobs made before migration 0034 are Document or Business Verification.
 */
export const providerJobKinds = [
  'document_verification',
  'business_verification',
  'enhanced_kyc',
  'biometric_kyc',
  'aml_screening',
] as const;
export type ProviderJobKind = (typeof providerJobKinds)[number];

/**
 * One check of a submission (docs/decisions.md#verification-checks): `id_registry` (the ID number and what was
 * typed against the national registry, IPRS), `face_match` (the selfie against the registry's or the ID card's
 * photo), `liveness`, `document_authenticity`, `mrz` (a passport's machine-readable zone and its check digits),
 * `document_expiry`, `age`, `duplicate_id_number` (the same ID number verified for another end user of the
 * organization), `business_registry` (BRS), `directors` (each director's own KYC) and `aml_screening` (sanctions and
 * PEP lists).
 */
export const verificationCheckKinds = [
  'id_registry',
  'face_match',
  'liveness',
  'document_authenticity',
  'mrz',
  'document_expiry',
  'age',
  'duplicate_id_number',
  'business_registry',
  'directors',
  'aml_screening',
] as const;
export type VerificationCheckKind = (typeof verificationCheckKinds)[number];

/** Who made a check: this service alone, Smile ID, or the fake results test sessions get (same shapes as live). */
export const verificationCheckSources = ['service', 'smile_id', 'test'] as const;
export type VerificationCheckSource = (typeof verificationCheckSources)[number];

/**
 * A check's result: `passed`; `failed` (it found something wrong); `attention` (a person must look: a partial name
 * match, a screening hit, a number verified for someone else); `unavailable` (it could not be made: a registry down,
 * an unmapped code); `not_applicable` (nothing to check, such as the MRZ of an ID card).
 */
export const verificationCheckOutcomes = ['passed', 'failed', 'attention', 'unavailable', 'not_applicable'] as const;
export type VerificationCheckOutcome = (typeof verificationCheckOutcomes)[number];

/** What an API key may do beyond the sessions themselves: read the verified data of its organization's sessions. */
export const apiKeyPermissions = ['verified_data:read'] as const;
export type ApiKeyPermission = (typeof apiKeyPermissions)[number];

/** The identity documents a person sends for a kyc session (no back of a passport). */
export const kycDocumentKinds = ['id_document_front', 'id_document_back', 'selfie'] as const;
/** The documents a business sends for a kyb session; `director_id` once per director. */
export const kybDocumentKinds = ['certificate_of_incorporation', 'cr12', 'kra_pin_certificate', 'director_id'] as const;
export const documentKinds = [...kycDocumentKinds, ...kybDocumentKinds] as const;
export type DocumentKind = (typeof documentKinds)[number];

/** The document kinds a session of `type` takes. */
export function documentKindsOf(type: VerificationType): readonly DocumentKind[] {
  return type === 'kyc' ? kycDocumentKinds : kybDocumentKinds;
}

/** What a stored document's content was found to be (by its bytes, never by its name or the client's word). */
export const documentContentTypes = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type DocumentContentType = (typeof documentContentTypes)[number];

/** The identity document a kyc submission names: a Kenyan national ID, a passport or a foreigner's alien ID. */
export const idTypes = ['national_id', 'passport', 'alien_id'] as const;
export type IdType = (typeof idTypes)[number];

export const webhookEventStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookEventStatus = (typeof webhookEventStatuses)[number];

/**
 * What one try of a callback came to (docs/decisions.md#delivery-log): `delivered` (2xx), `retrying` (failed, another
 * try is scheduled) or `failed` (failed for good: the last try, a 410 Gone, or a refused target).
 */
export const webhookAttemptOutcomes = ['delivered', 'retrying', 'failed'] as const;
export type WebhookAttemptOutcome = (typeof webhookAttemptOutcomes)[number];

/** How a payment was asked for (POST /v1/billing/pay `method`). */
export const paymentMethodKinds = ['card', 'mobile_money', 'saved_method', 'bank_transfer'] as const;
export type PaymentMethodKind = (typeof paymentMethodKinds)[number];

/** What a saved payment method is: a card, or an M-Pesa number. */
export const savedMethodTypes = ['card', 'mobile_money'] as const;
export type SavedMethodType = (typeof savedMethodTypes)[number];

/**
 * What actually moves the money: a card, an M-Pesa STK push (a saved method is one of the two), or a bank transfer
 * the payer makes and the platform's finance staff confirm (docs/decisions.md#bank-transfers).
 */
export const paymentChannels = [...savedMethodTypes, 'bank_transfer'] as const;
export type PaymentChannel = (typeof paymentChannels)[number];

/**
 * pending -> succeeded | failed | cancelled | expired; a late success may still move expired -> succeeded.
 * `refund_due`: the money arrived for an organization that had been retired, so nothing was applied and the platform's
 * finance staff refund it (docs/decisions.md#retired-organizations-take-no-money); final, like succeeded.
 */
export const paymentStatuses = ['pending', 'succeeded', 'failed', 'cancelled', 'expired', 'refund_due'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/**
 * What a payment pays for: a wallet top-up, a mail subscription purchase, or a charge to a saved card for a
 * change of the subscription (upgrade) or its renewal. Only the first two can be asked for with
 * POST /v1/billing/pay.
 */
export const paymentPurposes = [
  'wallet_topup',
  'mail_subscription',
  'mail_subscription_change',
  'mail_subscription_renewal',
] as const;
export type PaymentPurpose = (typeof paymentPurposes)[number];

/** Purposes whose payment carries the mail subscription terms it pays for (plan, seats, billing cycle). */
export const subscriptionPaymentPurposes = [
  'mail_subscription',
  'mail_subscription_change',
  'mail_subscription_renewal',
] as const;

/** Who reports a payment's outcome; `bank_transfer`: the platform's finance staff, from the bank statement. */
export const paymentProviders = ['paystack', 'daraja', 'sandbox', 'bank_transfer'] as const;
export type PaymentProvider = (typeof paymentProviders)[number];

/**
 * Safaricom's M-Pesa receipt numbers (`QKT2XYZ8AB`, Daraja's `MpesaReceiptNumber`): 10 uppercase letters and digits.
 * Kept on payments and receipts only in this form.
 */
export const MPESA_RECEIPT_NUMBER_PATTERN = '^[A-Z0-9]{10}$';

/**
 * What finance recorded when confirming a bank transfer (docs/decisions.md#split-bank-transfers): `applied`, the money
 * received for the invoice reached its amount and the payment succeeded; `partial`, it is still below (the invoice
 * stays open for the rest); `refund_due`, it arrived for a retired organization and is refunded
 * (docs/decisions.md#retired-organizations-take-no-money). `amount_mismatch` is no longer written: it names the
 * transfers of another amount recorded before split transfers added up, which now count toward their invoice.
 */
export const transferConfirmationOutcomes = ['applied', 'partial', 'refund_due', 'amount_mismatch'] as const;
export type TransferConfirmationOutcome = (typeof transferConfirmationOutcomes)[number];

/** What a payment event records: its creation, the provider's answers and events, and every status change. */
export const paymentEventTypes = [
  'created',
  'provider_accepted',
  'provider_error',
  'provider_event',
  'status_changed',
] as const;
export type PaymentEventType = (typeof paymentEventTypes)[number];
