/** A card the provider lets us charge again, as it will be saved. The authorization code is a secret. */
export interface ReusableCard {
  authorizationCode: string;
  /** The provider's identifier of the card itself, the same across authorizations. */
  signature: string;
  customerEmail: string;
  brand: string | null;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
  bank: string | null;
}
