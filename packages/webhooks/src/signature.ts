import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks format). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The HMAC key of a `whsec_` secret: the base64-decoded part after the prefix. */
function keyOf(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('A webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for one secret. */
export function signatureFor(secret: string, id: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${digest}`;
}

export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * The Standard Webhooks headers of one attempt. With several secrets (a rotation's grace period) the
 * signatures are space-separated; a receiver accepts the message when any of them matches its secret.
 */
export function signWebhook(input: {
  id: string;
  body: string;
  secrets: readonly string[];
  sentAt: Date;
}): WebhookHeaders {
  if (input.secrets.length === 0) throw new Error('Signing needs at least one secret');
  const timestamp = Math.floor(input.sentAt.getTime() / 1000);
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': input.secrets.map((secret) => signatureFor(secret, input.id, timestamp, input.body)).join(' '),
  };
}
