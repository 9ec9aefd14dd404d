import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DocumentKeyringError } from './errors.js';
import { generateDocumentKeyEntry, parseDocumentKeyring } from './keyring.js';

// Fixed keys, so the test names below are the same on every run.
const keyA = Buffer.alloc(32, 0xa1).toString('base64');
const keyB = Buffer.alloc(32, 0xb2).toString('base64');

function parseError(value: string, variable?: string): DocumentKeyringError {
  try {
    parseDocumentKeyring(value, variable);
  } catch (error) {
    if (error instanceof DocumentKeyringError) return error;
    throw error;
  }
  throw new Error('expected a DocumentKeyringError');
}

describe('parseDocumentKeyring', () => {
  it('reads one key as the current key', () => {
    const keyring = parseDocumentKeyring(`2025-01:${keyA}`);
    expect(keyring.current.id).toBe('2025-01');
    expect(keyring.current.key.symmetricKeySize).toBe(32);
    expect(keyring.current.key.export().toString('base64')).toBe(keyA);
    expect([...keyring.keys.keys()]).toEqual(['2025-01']);
  });

  it('makes the first entry current and keeps the others for reading, spaces around entries allowed', () => {
    const keyring = parseDocumentKeyring(` b : ${keyB} , a:${keyA} `);
    expect(keyring.current.id).toBe('b');
    expect([...keyring.keys.keys()]).toEqual(['b', 'a']);
    expect(keyring.keys.get('a')?.key.export().toString('base64')).toBe(keyA);
  });

  it('accepts the URL-safe alphabet and a missing padding', () => {
    const bytes = Buffer.from(keyA, 'base64');
    const keyring = parseDocumentKeyring(`k:${bytes.toString('base64url')}`);
    expect(keyring.current.key.export().equals(bytes)).toBe(true);
  });

  it('never shows key material when the keyring is printed or serialized', () => {
    const keyring = parseDocumentKeyring(`a:${keyA},b:${keyB}`);
    for (const shown of [inspect(keyring, { depth: 10 }), JSON.stringify(keyring), JSON.stringify([...keyring.keys])]) {
      expect(shown).not.toContain(keyA);
      expect(shown).not.toContain(keyB);
      expect(shown).not.toContain(Buffer.from(keyA, 'base64').toString('hex'));
    }
  });

  it.each([
    ['', 'DOCUMENT_ENCRYPTION_KEY is empty; expected <keyId>:<base64 of 32 random bytes>'],
    ['   ', 'DOCUMENT_ENCRYPTION_KEY is empty; expected <keyId>:<base64 of 32 random bytes>'],
    [keyA, 'DOCUMENT_ENCRYPTION_KEY is not <keyId>:<base64 of 32 random bytes>'],
    [`a:${keyA},${keyB}`, 'DOCUMENT_ENCRYPTION_KEY is not <keyId>:<base64 of 32 random bytes>, ... (entry 2)'],
    [`a:${keyA},`, 'DOCUMENT_ENCRYPTION_KEY is not <keyId>:<base64 of 32 random bytes>, ... (entry 2)'],
    [`:${keyA}`, 'DOCUMENT_ENCRYPTION_KEY has an invalid key id: 1-64 letters, digits, "_", "-" or "." before the ":"'],
    [
      `${keyB}:${keyA}`,
      'DOCUMENT_ENCRYPTION_KEY has an invalid key id: 1-64 letters, digits, "_", "-" or "." before the ":"',
    ],
    [
      `${'k'.repeat(65)}:${keyA}`,
      'DOCUMENT_ENCRYPTION_KEY has an invalid key id: 1-64 letters, digits, "_", "-" or "." before the ":"',
    ],
    ['a:not base64!', 'DOCUMENT_ENCRYPTION_KEY key "a" is not base64'],
    ['a:', 'DOCUMENT_ENCRYPTION_KEY key "a" is not base64'],
    [`a:${Buffer.alloc(16, 1).toString('base64')}`, 'DOCUMENT_ENCRYPTION_KEY key "a" is 16 bytes, not 32'],
    [
      `a:${keyA},b:${Buffer.alloc(31, 1).toString('base64')}`,
      'DOCUMENT_ENCRYPTION_KEY key "b" is 31 bytes, not 32 (entry 2)',
    ],
    [`a:${keyA},a:${keyB}`, 'DOCUMENT_ENCRYPTION_KEY names key "a" twice'],
  ])('refuses %j with a message naming the variable, never the key', (value, message) => {
    const error = parseError(value);
    expect(error.message).toBe(message);
    expect(error.variable).toBe('DOCUMENT_ENCRYPTION_KEY');
    expect(error.message).not.toContain(keyA);
    expect(error.message).not.toContain(keyB);
  });

  it('names the variable it is given', () => {
    const error = parseError('a:short', 'VERIFY_DOCUMENT_KEY');
    expect(error.variable).toBe('VERIFY_DOCUMENT_KEY');
    expect(error.message).toBe('VERIFY_DOCUMENT_KEY key "a" is 3 bytes, not 32');
  });
});

describe('generateDocumentKeyEntry', () => {
  it('makes a new random entry the parser reads', () => {
    const first = generateDocumentKeyEntry('local-1');
    const second = generateDocumentKeyEntry('local-1');
    expect(first).toMatch(/^local-1:[A-Za-z0-9+/]{43}=$/);
    expect(second).not.toBe(first);
    expect(parseDocumentKeyring(`${first}`).current.id).toBe('local-1');
  });

  it('refuses a key id the format cannot store', () => {
    expect(() => generateDocumentKeyEntry('a:b')).toThrow(/key id/);
    expect(() => generateDocumentKeyEntry('')).toThrow(/key id/);
  });
});
