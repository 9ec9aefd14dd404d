import { type ApiKeyEnvironment, apiKeyEnvironments, type DatabaseExecutor, type WebhookEndpoint } from '@platform/db';
import {
  deleteDisabledTarget,
  findEndpoint,
  insertEndpointIfMissing,
  listDisabledTargets,
  listEndpointSettings,
  markSecretRevealed,
  replaceSecret,
  updateDefaultUrl,
} from './repository.js';
import { generateWebhookSecret } from './signature.js';

/** How long the previous secret keeps signing after a rotation, so receivers can switch without a gap. */
export const ROTATION_GRACE_PERIOD_MS = 24 * 60 * 60 * 1000;

export interface EndpointRef {
  organizationId: string;
  environment: ApiKeyEnvironment;
}

/**
 * The organization's callback settings for one environment, created on first use with a new secret.
 * Concurrent first calls create one row: the unique (organization, environment) decides, and the loser reads
 * the winner's row.
 */
export async function ensureWebhookEndpoint(db: DatabaseExecutor, ref: EndpointRef): Promise<WebhookEndpoint> {
  const created = await insertEndpointIfMissing(db, ref, generateWebhookSecret());
  if (created !== undefined) return created;
  const existing = await findEndpoint(db, ref);
  if (existing === undefined) throw new Error('The webhook endpoint vanished right after it was created');
  return existing;
}

/** The secrets that sign a message sent at `now`: the current one, and the previous one during its grace period. */
export function signingSecretsOf(endpoint: WebhookEndpoint, now: Date): string[] {
  const { previousSecret, previousSecretExpiresAt } = endpoint;
  const previousActive =
    previousSecret !== null && previousSecretExpiresAt !== null && previousSecretExpiresAt.getTime() > now.getTime();
  return previousActive ? [endpoint.secret, previousSecret] : [endpoint.secret];
}

/**
 * The current secret, the first time it is asked for; null when it was already revealed (rotate to get a new
 * one). One conditional UPDATE, so two simultaneous reveals cannot both get it.
 */
export async function revealWebhookSecret(
  db: DatabaseExecutor,
  ref: EndpointRef & { now: Date },
): Promise<{ secret: string } | null> {
  await ensureWebhookEndpoint(db, ref);
  return (await markSecretRevealed(db, ref)) ?? null;
}

/**
 * Replaces the secret with a new one, returned (and counted as revealed) here only. The old secret becomes the
 * previous one and keeps signing until `now + gracePeriodMs`; a secret that was already previous is dropped.
 */
export async function rotateWebhookSecret(
  db: DatabaseExecutor,
  ref: EndpointRef & { now: Date; gracePeriodMs?: number },
): Promise<{ secret: string; previousSecretExpiresAt: Date }> {
  await ensureWebhookEndpoint(db, ref);
  const secret = generateWebhookSecret();
  const previousSecretExpiresAt = new Date(ref.now.getTime() + (ref.gracePeriodMs ?? ROTATION_GRACE_PERIOD_MS));
  const rotated = await replaceSecret(db, {
    organizationId: ref.organizationId,
    environment: ref.environment,
    now: ref.now,
    secret,
    previousSecretExpiresAt,
  });
  if (!rotated) throw new Error('The webhook endpoint to rotate was not found');
  return { secret, previousSecretExpiresAt };
}

/**
 * Sets (or clears, with null) where events without a session callbackUrl go. Setting a URL again re-enables it
 * if it had been disabled by a 410 Gone: the customer has said it works again.
 */
export async function setDefaultWebhookUrl(
  db: DatabaseExecutor,
  ref: EndpointRef & { defaultUrl: string | null; now: Date },
): Promise<void> {
  await ensureWebhookEndpoint(db, ref);
  await updateDefaultUrl(db, ref);
  if (ref.defaultUrl !== null) {
    await deleteDisabledTarget(db, {
      organizationId: ref.organizationId,
      environment: ref.environment,
      url: ref.defaultUrl,
    });
  }
}

export interface WebhookEndpointSettings {
  environment: ApiKeyEnvironment;
  defaultUrl: string | null;
  /** Whether the current secret has been shown (by a reveal or a rotation). */
  secretRevealed: boolean;
  secretRevealedAt: Date | null;
  /** Until when the previous secret still signs; null when no rotation is in its grace period. */
  previousSecretExpiresAt: Date | null;
  /** URLs that answered 410 Gone; nothing more is sent to them. */
  disabledTargets: { url: string; reason: string; disabledAt: Date }[];
}

/** Both environments' settings, never a secret. Reads only: an environment never used shows its defaults. */
export async function getWebhookEndpointSettings(
  db: DatabaseExecutor,
  organizationId: string,
  now: Date,
): Promise<WebhookEndpointSettings[]> {
  const endpoints = await listEndpointSettings(db, organizationId);
  const disabled = await listDisabledTargets(db, organizationId);

  return apiKeyEnvironments.map((environment) => {
    const endpoint = endpoints.find((row) => row.environment === environment);
    const expiresAt = endpoint?.previousSecretExpiresAt ?? null;
    return {
      environment,
      defaultUrl: endpoint?.defaultUrl ?? null,
      secretRevealed: endpoint?.secretRevealedAt != null,
      secretRevealedAt: endpoint?.secretRevealedAt ?? null,
      previousSecretExpiresAt: expiresAt !== null && expiresAt.getTime() > now.getTime() ? expiresAt : null,
      disabledTargets: disabled
        .filter((row) => row.environment === environment)
        .map((row) => ({ url: row.url, reason: row.reason, disabledAt: row.createdAt })),
    };
  });
}
