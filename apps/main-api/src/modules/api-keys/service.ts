import { createApiKey, normaliseApiKeyName } from '@platform/api-keys';
import {
  type ApiKeyEnvironment,
  type ApiKeyPermission,
  type Database,
  isUuid,
  type MembershipRole,
} from '@platform/db';
import { forbidden, invalidFields } from '@platform/errors';
import { findOrganizationKeyRateLimitMax } from '@platform/organizations';
import { assertActivated } from '../activation/index.js';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import { allows } from '../organizations/index.js';
import { findOrganizationApiKeys, setOrganizationApiKeyRevoked } from './repository.js';
import type { ApiKeyView, CreatedApiKeyView } from './schemas.js';

/** The visible start of every secret of an environment (`sk_live_`, `sk_test_`). */
function secretPrefixOf(environment: ApiKeyEnvironment): 'sk_live_' | 'sk_test_' {
  return environment === 'live' ? 'sk_live_' : 'sk_test_';
}

interface NewApiKeyRequest {
  organizationId: string;
  userId: string;
  environment: ApiKeyEnvironment;
  /** As sent: trimmed and checked here; none gives the default name. */
  name?: string;
  rateLimitPerMinute?: number;
  permissions?: readonly ApiKeyPermission[];
  /** The creator's role: giving `verified_data:read` needs verifications:read_personal_data. */
  role: MembershipRole;
}

/** The 403 for giving a key the permission to read verified data without holding it (docs/decisions.md#verified-data). */
const VERIFIED_DATA_KEY_FORBIDDEN =
  'Giving a key the permission verified_data:read needs the role owner or admin (verifications:read_personal_data)';

/**
 * The highest rateLimitPerMinute a key of the organization may have (docs/decisions.md#organization-rate-limit-maximum):
 * its own maximum, else `defaultRateLimitMax`.
 */
export async function keyRateLimitMaxOf(
  db: Database,
  organizationId: string,
  defaultRateLimitMax: number,
): Promise<number> {
  return (await findOrganizationKeyRateLimitMax(db, organizationId)) ?? defaultRateLimitMax;
}

/**
 * Creates a key for the organization (docs/decisions.md#key-creation); the returned secret is never available
 * again. 400 for a name that breaks the rules, then for a rateLimitPerMinute above the organization's maximum
 * (docs/decisions.md#organization-rate-limit-maximum); `defaultRateLimitMax` is that maximum for organizations
 * without one of their own (API_KEY_RATE_LIMIT_MAX_PER_MINUTE); then 403 `organization_not_activated` for a live key
 * of an organization not activated yet (docs/decisions.md#going-live).
 */
export async function issueApiKey(
  db: Database,
  request: NewApiKeyRequest,
  defaultRateLimitMax: number,
  audit: AuditContext,
): Promise<CreatedApiKeyView> {
  const name = normaliseApiKeyName(request.name);
  if (typeof name !== 'string') {
    throw invalidFields([{ path: '/name', message: name.problem }]);
  }
  const { rateLimitPerMinute } = request;
  const permissions = [...new Set(request.permissions ?? [])].sort();
  if (permissions.includes('verified_data:read') && !allows(request.role, 'verifications:read_personal_data')) {
    throw forbidden(VERIFIED_DATA_KEY_FORBIDDEN);
  }
  if (rateLimitPerMinute !== undefined) {
    const max = await keyRateLimitMaxOf(db, request.organizationId, defaultRateLimitMax);
    if (rateLimitPerMinute > max) {
      const problem = `must be at most ${max} (this organization's maximum)`;
      throw invalidFields([{ path: '/rateLimitPerMinute', message: problem }]);
    }
  }
  // Live keys wait for the organization's activation; test keys work from the start (docs/decisions.md#going-live).
  if (request.environment === 'live') await assertActivated(db, request.organizationId, 'live API keys');
  const created = await db.transaction(async (tx) => {
    const key = await createApiKey(tx, {
      organizationId: request.organizationId,
      environment: request.environment,
      name,
      createdByUserId: request.userId,
      ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
      permissions,
    });
    // The prefix and last four tell the key apart; the secret itself is never recorded.
    await recordAuditEvent(tx, audit, {
      organizationId: key.organizationId,
      action: 'api_key.created',
      targetType: 'api_key',
      targetId: key.id,
      details: {
        name: key.name,
        environment: key.environment,
        prefix: secretPrefixOf(key.environment),
        lastFour: key.lastFour,
        rateLimitPerMinute: key.rateLimitPerMinute,
        permissions: key.permissions,
      },
    });
    return key;
  });
  return {
    id: created.id,
    name: created.name,
    environment: created.environment,
    secret: created.secret,
    lastFour: created.lastFour,
    prefix: secretPrefixOf(created.environment),
    rateLimitPerMinute: created.rateLimitPerMinute,
    permissions: created.permissions,
    createdAt: created.createdAt.toISOString(),
  };
}

/** The organization's keys, newest first; revoked ones only when asked for (docs/decisions.md#key-list). */
export async function listApiKeys(
  db: Database,
  organizationId: string,
  options: { includeRevoked: boolean },
): Promise<ApiKeyView[]> {
  const rows = await findOrganizationApiKeys(db, organizationId, options);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    environment: row.environment,
    prefix: secretPrefixOf(row.environment),
    lastFour: row.lastFour,
    rateLimitPerMinute: row.rateLimitPerMinute,
    permissions: row.permissions,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
}

/**
 * Revokes one of the organization's keys. Revoking a key that is already revoked succeeds and keeps the first
 * revocation time (docs/decisions.md#repeated-revocation). False when the organization has no key with that id
 * (including ids that are not UUIDs).
 */
export async function revokeOrganizationApiKey(
  db: Database,
  organizationId: string,
  id: string,
  now: Date,
  audit: AuditContext,
): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const outcome = await setOrganizationApiKeyRevoked(tx, organizationId, id, now);
    // A repeated revocation changes nothing, so it records nothing.
    if (outcome === 'revoked') {
      await recordAuditEvent(tx, audit, {
        organizationId,
        action: 'api_key.revoked',
        targetType: 'api_key',
        targetId: id,
      });
    }
    return outcome !== 'not_found';
  });
}
