import type { VerificationType } from '@platform/db';

/** How many organization and type pairs an instance remembers; past it, it starts again from none. */
const KNOWN_PRICES_LIMIT = 10_000;

/**
 * The price of each organization's sessions by type as this instance last saw it, for the create in one statement,
 * which holds it and checks it is still in force (docs/decisions.md#a-create-in-one-statement). Filled by the
 * transactional path, which finds the price itself; an organization not known yet is created that way.
 */
export interface KnownPrices {
  get(organizationId: string, type: VerificationType): number | undefined;
  remember(organizationId: string, type: VerificationType, price: number): void;
}

export function knownPrices(limit = KNOWN_PRICES_LIMIT): KnownPrices {
  const prices = new Map<string, number>();
  const keyOf = (organizationId: string, type: VerificationType) => `${organizationId}:${type}`;
  return {
    get: (organizationId, type) => prices.get(keyOf(organizationId, type)),
    remember(organizationId, type, price) {
      if (prices.size >= limit) prices.clear();
      prices.set(keyOf(organizationId, type), price);
    },
  };
}
