import { randomFillSync } from 'node:crypto';
import type { ApiKeyEnvironment, DatabaseExecutor, UnitOfWork } from '@platform/db';
import { addWebhookEventInsert, insertWebhookEvent, type NewWebhookEvent } from './repository.js';

/** The JSON body of every callback (docs/decisions.md#event-ids-and-payloads); `id` is also the `webhook-id` header. */
export interface WebhookEventBody {
  id: string;
  type: string;
  /** When the event happened (ISO 8601), not when this attempt was sent. */
  timestamp: string;
  data: Record<string, unknown>;
}

export interface EnqueueWebhookEventInput {
  organizationId: string;
  environment: ApiKeyEnvironment;
  /** e.g. `verification_session.verified`. */
  type: string;
  data: Record<string, unknown>;
  /** The session's callbackUrl; null sends to the organization's default endpoint as it is at delivery time. */
  targetUrl: string | null;
  now: Date;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TIME_CHARS = 9;
const RANDOM_CHARS = 18;

/**
 * `msg_` + 27 base62 characters: the event time in milliseconds (so ids sort roughly by time, like a ULID)
 * followed by 18 random characters (~107 bits).
 */
export function newWebhookEventId(now: Date = new Date()): string {
  let time = '';
  for (let value = Math.max(0, Math.floor(now.getTime())); time.length < TIME_CHARS; value = Math.floor(value / 62)) {
    time = BASE62.charAt(value % 62) + time;
  }
  let random = '';
  while (random.length < RANDOM_CHARS) {
    const byte = randomByte();
    // 248 = 4 * 62: bytes above it are skipped so every character is equally likely.
    if (byte < 248) random += BASE62.charAt(byte % 62);
  }
  return `msg_${time}${random}`;
}

// Random bytes drawn from a pool filled 4 KiB at a time, as Node does for randomUUID: one call into the CSPRNG per
// about two hundred ids instead of one per id (every session create writes one; docs/benchmarks.md).
const randomPool = Buffer.alloc(4096);
let randomPoolAt = randomPool.length;

function randomByte(): number {
  if (randomPoolAt === randomPool.length) {
    randomFillSync(randomPool);
    randomPoolAt = 0;
  }
  const byte = randomPool[randomPoolAt] ?? 0;
  randomPoolAt += 1;
  return byte;
}

/**
 * Writes an event to the outbox. Call it with the transaction that makes the change the event reports, so
 * the event exists exactly when the change does; the delivery worker sends it afterwards (no network call
 * happens here). The stored payload is the exact body that will be sent and signed.
 */
export async function enqueueWebhookEvent(
  tx: DatabaseExecutor,
  input: EnqueueWebhookEventInput,
): Promise<{ id: string }> {
  const event = webhookEventOf(input);
  await insertWebhookEvent(tx, event);
  return { id: event.id };
}

/**
 * enqueueWebhookEvent in a unit of work (docs/decisions.md#a-unit-of-work): the event's insert is added to the unit
 * of the change it reports and sent with the change's other writes at commit, so it exists exactly when the change
 * does and costs no statement of its own.
 */
export function addWebhookEvent(work: UnitOfWork, input: EnqueueWebhookEventInput): { id: string } {
  const event = webhookEventOf(input);
  addWebhookEventInsert(work, event);
  return { id: event.id };
}

function webhookEventOf(input: EnqueueWebhookEventInput): NewWebhookEvent {
  const id = newWebhookEventId(input.now);
  const payload: WebhookEventBody = {
    id,
    type: input.type,
    timestamp: input.now.toISOString(),
    data: input.data,
  };
  return {
    id,
    organizationId: input.organizationId,
    environment: input.environment,
    type: input.type,
    payload,
    targetUrl: input.targetUrl,
    nextAttemptAt: input.now,
    createdAt: input.now,
  };
}
