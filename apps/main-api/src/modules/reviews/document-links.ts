import { createHmac, createSecretKey, hkdfSync, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DocumentKeyring } from '@platform/document-vault';

// Reviewers' document links (docs/decisions.md#manual-review): a URL that works without the bearer token, so an
// <img> or <iframe> of the console can load the document, and is therefore itself the credential. It names the
// document, the reviewer it was issued to and when it stops working, under an HMAC-SHA256 of all three (and the
// method) with a key only the service holds: a changed id, reviewer or time, or another method, does not verify.

/** How long a link works: enough to open a document, too short to be worth passing around. */
export const DOCUMENT_LINK_TTL_SECONDS = 5 * 60;

/** Where a document's bytes are served; the link adds `?reviewer=&expires=&signature=`. */
export function documentContentPath(sessionId: string, documentId: string): string {
  return `/v1/reviews/${sessionId}/documents/${documentId}/content`;
}

/** What a link says, as read from its URL. */
export interface DocumentLinkClaims {
  sessionId: string;
  documentId: string;
  /** The user the link was issued to: the actor of the view in the audit log. */
  reviewerId: string;
  /** Unix time in seconds after which the link no longer works. */
  expires: number;
}

/** Domain separation: this key signs document links and nothing else, whatever it was derived from. */
const DERIVATION_INFO = 'platform main-api review document links v1';

/**
 * The key links are signed with: REVIEW_LINK_SECRET when set; else derived (HKDF-SHA256) from the current document
 * master key, which every instance already shares; else (embedded runs without a document key) random for this
 * process, whose vault then reads nothing another process stored either.
 */
export function documentLinkKeyOf(options: { secret?: string | undefined; keyring?: DocumentKeyring | undefined }) {
  if (options.secret !== undefined) return createSecretKey(Buffer.from(options.secret, 'utf8'));
  if (options.keyring !== undefined) {
    const derived = hkdfSync('sha256', options.keyring.current.key, Buffer.alloc(0), DERIVATION_INFO, 32);
    return createSecretKey(Buffer.from(derived));
  }
  return createSecretKey(randomBytes(32));
}

// JSON of an array: unambiguous whatever the reviewer id holds (a token's `sub` is any string).
function signatureOf(key: KeyObject, claims: DocumentLinkClaims): Buffer {
  const signed = JSON.stringify([
    'GET',
    documentContentPath(claims.sessionId, claims.documentId),
    claims.reviewerId,
    claims.expires,
  ]);
  return createHmac('sha256', key).update(signed).digest();
}

/** The link's query string (`reviewer=...&expires=...&signature=...`) for a document, valid 5 minutes from `now`. */
export function signDocumentLink(
  key: KeyObject,
  link: Omit<DocumentLinkClaims, 'expires'>,
  now: Date,
): { query: string; expiresAt: Date } {
  const expires = Math.floor(now.getTime() / 1000) + DOCUMENT_LINK_TTL_SECONDS;
  const signature = signatureOf(key, { ...link, expires }).toString('base64url');
  const query = new URLSearchParams({ reviewer: link.reviewerId, expires: String(expires), signature });
  return { query: query.toString(), expiresAt: new Date(expires * 1000) };
}

/**
 * True when `signature` is the service's for these claims, written exactly as the service wrote it, and the link has
 * not expired at `now` (nor claims a life longer than links are given). Compared as text, in constant time: decoding
 * first would accept another text for the same bytes (a last character that differs only in bits base64url drops).
 */
export function isValidDocumentLink(key: KeyObject, claims: DocumentLinkClaims, signature: string, now: Date): boolean {
  const seconds = now.getTime() / 1000;
  if (!Number.isSafeInteger(claims.expires) || claims.expires <= seconds) return false;
  if (claims.expires > seconds + DOCUMENT_LINK_TTL_SECONDS + 1) return false;
  const given = Buffer.from(signature, 'utf8');
  const expected = Buffer.from(signatureOf(key, claims).toString('base64url'), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
