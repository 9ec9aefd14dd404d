import type { DatabaseExecutor, MailSubscription, PaymentMethod, PaymentProvider } from '@platform/db';
import { conflict, invalidFields, notFound, validationError } from '@platform/errors';
import { findActivePaymentMethod, PAYMENT_METHOD_NOT_FOUND } from '../payment-methods/index.js';
import { renewalCardsOf } from './saved-cards-repository.js';

/** A saved card the configured card provider can charge. */
export interface ChargeableCard {
  id: string;
  authorizationCode: string;
  /** The email the card's authorization belongs to. */
  email: string;
}

const CARD_REQUIRED =
  'is required: the change costs more than the credit balance covers, and is charged to a saved card';
const ONLY_CARDS = 'Only a saved bank card can pay for a subscription change; M-Pesa numbers are not accepted';
const CARD_OF_OTHER_PROVIDER =
  'This card was saved with another card provider and can no longer be charged; pay by card to save it again';

/**
 * The card that pays for an upgrade (spec 4.9): `paymentMethodId` is required, must be one of the
 * organization's saved methods (else 404, as for payments) and a card (a mobile-money number is 400).
 */
export async function cardForChange(
  db: DatabaseExecutor,
  organizationId: string,
  paymentMethodId: string | undefined,
  provider: PaymentProvider,
  payerEmail: string | undefined,
): Promise<ChargeableCard> {
  if (paymentMethodId === undefined) {
    throw invalidFields([{ path: '/paymentMethodId', message: CARD_REQUIRED }]);
  }
  const method = await findActivePaymentMethod(db, organizationId, paymentMethodId);
  if (method === undefined) throw notFound(PAYMENT_METHOD_NOT_FOUND);
  if (method.type !== 'card') throw validationError(ONLY_CARDS, [{ path: '/paymentMethodId', message: ONLY_CARDS }]);
  const card = chargeable(method, provider, method.customerEmail ?? payerEmail);
  if (card === undefined) throw conflict(CARD_OF_OTHER_PROVIDER);
  return card;
}

/**
 * The card a renewal charges: the subscription's own card (the last one that paid), else the organization's
 * most recently used saved card; undefined when none can be charged by the configured card provider.
 */
export async function cardForRenewal(
  db: DatabaseExecutor,
  subscription: MailSubscription,
  provider: PaymentProvider,
): Promise<ChargeableCard | undefined> {
  const cards = await renewalCardsOf(db, subscription, provider);
  for (const { method, creatorEmail } of cards) {
    const card = chargeable(method, provider, method.customerEmail ?? creatorEmail ?? undefined);
    if (card !== undefined) return card;
  }
  return undefined;
}

function chargeable(
  method: PaymentMethod,
  provider: PaymentProvider,
  email: string | undefined,
): ChargeableCard | undefined {
  if (
    method.type !== 'card' ||
    method.provider !== provider ||
    method.authorizationCode === null ||
    email === undefined
  ) {
    return undefined;
  }
  return { id: method.id, authorizationCode: method.authorizationCode, email };
}
