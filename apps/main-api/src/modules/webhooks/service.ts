import type { ApiKeyEnvironment, Database } from '@platform/db';
import { conflict, invalidFields } from '@platform/errors';
import {
  getWebhookEndpointSettings,
  revealWebhookSecret,
  rotateWebhookSecret,
  setDefaultWebhookUrl,
  validateCallbackUrl,
  type WebhookEndpointSettings,
} from '@platform/webhooks';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import type { WebhookEndpointView, WebhookSecretView } from './schemas.js';

export const SECRET_ALREADY_REVEALED = 'The signing secret was already revealed; rotate it to get a new one';

interface Scope {
  organizationId: string;
  now: Date;
}

/** A change made by someone: who and from which request, for the audit log. */
interface Audited {
  audit: AuditContext;
}

/** Both environments' settings, live first. */
export async function listWebhookEndpoints(
  db: Database,
  { organizationId, now }: Scope,
): Promise<WebhookEndpointView[]> {
  return (await getWebhookEndpointSettings(db, organizationId, now)).map(endpointView);
}

/**
 * Sets or clears the default URL and returns the environment's settings. A URL must pass the SSRF guard
 * (docs/decisions.md#ssrf-guard); `allowPrivateTargets` lets http and private or loopback hosts through (local
 * runs and tests only).
 */
export async function updateWebhookEndpoint(
  db: Database,
  {
    organizationId,
    now,
    environment,
    defaultUrl,
    allowPrivateTargets,
    audit,
  }: Scope & Audited & { environment: ApiKeyEnvironment; defaultUrl: string | null; allowPrivateTargets: boolean },
): Promise<WebhookEndpointView> {
  if (defaultUrl !== null) {
    const check = validateCallbackUrl(defaultUrl, { allowPrivateTargets });
    if (!check.ok) {
      throw invalidFields([{ path: '/defaultUrl', message: check.reason }]);
    }
  }
  await db.transaction(async (tx) => {
    await setDefaultWebhookUrl(tx, { organizationId, environment, defaultUrl, now });
    await recordAuditEvent(tx, audit, {
      organizationId,
      action: 'webhook_endpoint.updated',
      targetType: 'webhook_endpoint',
      targetId: environment,
      details: { environment, defaultUrl: defaultUrl === null ? null : withoutSecrets(defaultUrl) },
    });
  });
  const endpoints = await listWebhookEndpoints(db, { organizationId, now });
  const updated = endpoints.find((endpoint) => endpoint.environment === environment);
  if (updated === undefined) throw new Error(`No ${environment} webhook settings after the update`);
  return updated;
}

/** The current secret, once; a 409 afterwards. */
export async function revealSecret(
  db: Database,
  { organizationId, now, environment, audit }: Scope & Audited & { environment: ApiKeyEnvironment },
): Promise<WebhookSecretView> {
  const revealed = await db.transaction(async (tx) => {
    const secret = await revealWebhookSecret(tx, { organizationId, environment, now });
    if (secret === null) return null;
    // That it was shown, never what.
    await recordAuditEvent(tx, audit, {
      organizationId,
      action: 'webhook_secret.revealed',
      targetType: 'webhook_endpoint',
      targetId: environment,
      details: { environment },
    });
    return secret;
  });
  if (revealed === null) throw conflict(SECRET_ALREADY_REVEALED);
  return { environment, secret: revealed.secret, previousSecretExpiresAt: null };
}

/** A new secret, shown in this answer only; the old one keeps signing for the grace period. */
export async function rotateSecret(
  db: Database,
  { organizationId, now, environment, audit }: Scope & Audited & { environment: ApiKeyEnvironment },
): Promise<WebhookSecretView> {
  const rotated = await db.transaction(async (tx) => {
    const replaced = await rotateWebhookSecret(tx, { organizationId, environment, now });
    await recordAuditEvent(tx, audit, {
      organizationId,
      action: 'webhook_secret.rotated',
      targetType: 'webhook_endpoint',
      targetId: environment,
      details: { environment, previousSecretExpiresAt: replaced.previousSecretExpiresAt.toISOString() },
    });
    return replaced;
  });
  return {
    environment,
    secret: rotated.secret,
    previousSecretExpiresAt: rotated.previousSecretExpiresAt.toISOString(),
  };
}

/**
 * A callback URL as the audit log keeps it: scheme, host and path. Its query string, fragment and any credentials
 * are left out, since a receiver may take a token there.
 */
function withoutSecrets(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

function endpointView(settings: WebhookEndpointSettings): WebhookEndpointView {
  return {
    environment: settings.environment,
    defaultUrl: settings.defaultUrl,
    secretRevealed: settings.secretRevealed,
    secretRevealedAt: settings.secretRevealedAt?.toISOString() ?? null,
    previousSecretExpiresAt: settings.previousSecretExpiresAt?.toISOString() ?? null,
    disabledTargets: settings.disabledTargets.map((target) => ({
      url: target.url,
      reason: target.reason,
      disabledAt: target.disabledAt.toISOString(),
    })),
  };
}
