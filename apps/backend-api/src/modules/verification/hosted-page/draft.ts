import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { SubmissionInput } from '../documents/index.js';

// What a person typed into the capture form (ID type and number and what they state about themselves, or
// registration number and company name), kept
// on the session from the upload to the review step and back to the form (never in a URL) until the submit: sealed
// with AES-256-GCM under a key derived from the page's form secret and bound to the session id, so the column shows
// no number, a draft is worthless for any other session, and a changed one does not open.
// docs/decisions.md#hosted-capture

const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_FIELD = 200;
/** A sealed draft of every field at MAX_FIELD fits (11 fields as JSON, sealed, in base64url). */
export const MAX_SEALED_DRAFT = 4000;
/** The fields a draft keeps, each a text input of the capture form. */
export const draftFields = [
  'idType',
  'idNumber',
  'firstName',
  'middleName',
  'lastName',
  'dateOfBirth',
  'documentExpiry',
  'nationality',
  'mrz',
  'registrationNumber',
  'companyName',
] as const;

export type Draft = Pick<SubmissionInput, (typeof draftFields)[number]>;

function keyOf(secret: string): Buffer {
  return createHmac('sha256', secret).update('hosted-page-draft').digest();
}

/** Only the draft's known fields, trimmed, at most 200 characters; empty ones left out. */
export function draftOf(values: Record<string, unknown>): Draft {
  const draft: Draft = {};
  for (const field of draftFields) {
    const value = values[field];
    const text = typeof value === 'string' ? value.trim() : '';
    if (text !== '') draft[field] = text.slice(0, MAX_FIELD);
  }
  return draft;
}

export function sealDraft(secret: string, sessionId: string, draft: Draft): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  cipher.setAAD(Buffer.from(sessionId));
  const body = Buffer.concat([cipher.update(JSON.stringify(draftOf(draft))), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The draft sealed for this session, or undefined for anything else (absent, changed, another session's). */
export function openDraft(secret: string, sessionId: string, sealed: unknown): Draft | undefined {
  if (typeof sealed !== 'string' || sealed.length > MAX_SEALED_DRAFT) return undefined;
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(sessionId));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    return draftOf(JSON.parse(text.toString('utf8')) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}
