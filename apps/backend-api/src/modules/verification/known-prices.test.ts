import { describe, expect, it } from 'vitest';
import { knownPrices } from './known-prices.js';

describe('prices an instance has seen', () => {
  it('remembers the last price of each organization and type apart', () => {
    const prices = knownPrices();
    prices.remember('org-a', 'kyc', 50);
    prices.remember('org-a', 'kyb', 200);
    prices.remember('org-a', 'kyc', 40);
    expect(prices.get('org-a', 'kyc')).toBe(40);
    expect(prices.get('org-a', 'kyb')).toBe(200);
    expect(prices.get('org-b', 'kyc')).toBeUndefined();
  });

  it('starts again from none past its limit, so memory stays bounded', () => {
    const prices = knownPrices(2);
    prices.remember('org-a', 'kyc', 50);
    prices.remember('org-b', 'kyc', 50);
    prices.remember('org-c', 'kyc', 60);
    expect(prices.get('org-a', 'kyc')).toBeUndefined();
    expect(prices.get('org-c', 'kyc')).toBe(60);
  });
});
