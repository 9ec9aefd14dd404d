import { generateDocumentKeyEntry, parseDocumentKeyring } from '@platform/document-vault';
import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_LINK_TTL_SECONDS,
  type DocumentLinkClaims,
  documentLinkKeyOf,
  isValidDocumentLink,
  signDocumentLink,
} from './document-links.js';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const link = {
  sessionId: '2b0f7f5e-6f55-4d7e-9a8e-0c2b5d1a9e11',
  documentId: '7c9a1d3e-1b2f-4c5d-8e9f-a0b1c2d3e4f5',
  reviewerId: 'user_reviewer',
};

function signed(key = documentLinkKeyOf({ secret: 'a'.repeat(32) }), at = NOW) {
  const { query, expiresAt } = signDocumentLink(key, link, at);
  const params = new URLSearchParams(query);
  const claims: DocumentLinkClaims = {
    ...link,
    reviewerId: params.get('reviewer') ?? '',
    expires: Number(params.get('expires')),
  };
  return { key, claims, signature: params.get('signature') ?? '', expiresAt };
}

describe('document links', () => {
  it('work for 5 minutes and not a second longer', () => {
    const { key, claims, signature, expiresAt } = signed();
    expect(expiresAt.getTime() - NOW.getTime()).toBe(DOCUMENT_LINK_TTL_SECONDS * 1000);
    expect(isValidDocumentLink(key, claims, signature, NOW)).toBe(true);
    expect(isValidDocumentLink(key, claims, signature, new Date(expiresAt.getTime() - 1))).toBe(true);
    expect(isValidDocumentLink(key, claims, signature, expiresAt)).toBe(false);
  });

  it('refuse a signature written otherwise for the same bytes (its last character differing in dropped bits only)', () => {
    const { key, claims, signature } = signed();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature.slice(-1));
    // A 32-byte signature's last character carries 4 bits and 2 that decoding drops: flip one of those.
    const sameBytes = `${signature.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(sameBytes, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    expect(isValidDocumentLink(key, claims, sameBytes, NOW)).toBe(false);
  });

  it('do not verify with any part changed, nor under another key', () => {
    const { key, claims, signature } = signed();
    const changed: DocumentLinkClaims[] = [
      { ...claims, sessionId: claims.documentId },
      { ...claims, documentId: claims.sessionId },
      { ...claims, reviewerId: 'user_other' },
      { ...claims, expires: claims.expires - 1 },
    ];
    for (const other of changed) expect(isValidDocumentLink(key, other, signature, NOW)).toBe(false);
    expect(isValidDocumentLink(key, claims, `${signature.slice(0, -1)}A`, NOW)).toBe(false);
    expect(isValidDocumentLink(key, claims, '', NOW)).toBe(false);
    expect(isValidDocumentLink(documentLinkKeyOf({ secret: 'b'.repeat(32) }), claims, signature, NOW)).toBe(false);
  });

  it('refuse a signed life longer than 5 minutes, which this service never gives', () => {
    const { key, signature, claims } = signed(undefined, new Date(NOW.getTime() + 60_000));
    expect(isValidDocumentLink(key, claims, signature, NOW)).toBe(false);
  });

  it('are signed with REVIEW_LINK_SECRET, else a key derived from the document key that every instance derives alike', () => {
    const entry = generateDocumentKeyEntry('k1');
    const fromDocuments = signed(documentLinkKeyOf({ keyring: parseDocumentKeyring(entry) }));
    // Another instance with the same DOCUMENT_ENCRYPTION_KEY accepts the link.
    const elsewhere = documentLinkKeyOf({ keyring: parseDocumentKeyring(entry) });
    expect(isValidDocumentLink(elsewhere, fromDocuments.claims, fromDocuments.signature, NOW)).toBe(true);
    // The secret wins over the document key; a process with neither has a key of its own.
    const withSecret = documentLinkKeyOf({ secret: 'c'.repeat(32), keyring: parseDocumentKeyring(entry) });
    expect(isValidDocumentLink(withSecret, fromDocuments.claims, fromDocuments.signature, NOW)).toBe(false);
    expect(isValidDocumentLink(documentLinkKeyOf({}), fromDocuments.claims, fromDocuments.signature, NOW)).toBe(false);
    // The derived key is not the document key itself.
    const keyring = parseDocumentKeyring(entry);
    expect(elsewhere.export().equals(keyring.current.key.export())).toBe(false);
  });
});
