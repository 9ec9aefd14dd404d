import { describe, expect, it } from 'vitest';
import {
  accountReferenceOf,
  isPaymentReference,
  newPaymentReference,
  newTransferReference,
  readTransferReference,
} from './reference.js';

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

  it('give bank transfers a reference of BT and 8 characters no one misreads, different every time', () => {
    const references = new Set(Array.from({ length: 200 }, newTransferReference));
    expect(references.size).toBe(200);
    for (const reference of references) {
      expect(reference).toMatch(/^BT[0-9A-HJKMNP-TV-Z]{8}$/);
      expect(readTransferReference(reference)).toBe(reference);
    }
  });

  it('read a transfer reference as finance copies it from a statement, and nothing else', () => {
    for (const copied of ['bt4k7q9xmp', 'BT 4K7Q 9XMP', 'BT-4K7Q-9XMP', ' bt4k7q9xmp ']) {
      expect(readTransferReference(copied)).toBe('BT4K7Q9XMP');
    }
    // O is read as 0, I and L as 1.
    expect(readTransferReference('BTO0IL1ABC')).toBe('BT00111ABC');
    for (const other of ['', 'BT', 'BT4K7Q9XM', 'BT4K7Q9XMPP', 'BTU0000000', 'PAY4K7Q9XMP', 'BT4K7Q9XM\u0000']) {
      expect(readTransferReference(other)).toBeUndefined();
    }
  });
});
