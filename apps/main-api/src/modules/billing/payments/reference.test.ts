import { describe, expect, it } from 'vitest';
import { accountReferenceOf, isPaymentReference, newPaymentReference } from './reference.js';

describe('payment references', () => {
  it('are PAY- and a UUID v4, different every time', () => {
    const references = new Set(Array.from({ length: 100 }, newPaymentReference));
    expect(references.size).toBe(100);
    for (const reference of references) expect(isPaymentReference(reference)).toBe(true);
    expect(isPaymentReference('PAY-123')).toBe(false);
    expect(isPaymentReference('pay-6a0c9c52-52c4-4a27-9d1a-0d2a8c3f0b11')).toBe(false);
  });

  it('give an M-Pesa AccountReference of at most 12 characters', () => {
    expect(accountReferenceOf('PAY-6a0c9c52-52c4-4a27-9d1a-0d2a8c3f0b11')).toBe('PAY6A0C9C52');
    for (let index = 0; index < 50; index += 1) {
      expect(accountReferenceOf(newPaymentReference())).toMatch(/^PAY[0-9A-F]{8}$/);
    }
  });
});
