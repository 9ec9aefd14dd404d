import { type ApiKeyEnvironment, type Database, MAX_ALLOWED_ORIGINS } from '@platform/db';
import { invalidFields } from '@platform/errors';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import { checkOrigin } from './origin.js';
import { allowedOriginRows, saveAllowedOrigins } from './repository.js';
import type { AllowedOriginsView } from './schemas.js';

// The organization's allowed origins (docs/decisions.md#allowed-origins): the pages that may open its hosted
// verification pages through the front-end SDK. backend-api reads them for the page's frame-ancestors and the
// targets of its postMessage calls.

/** Both environments' lists; an environment never set has none. */
export async function listAllowedOrigins(db: Database, organizationId: string): Promise<AllowedOriginsView> {
  const rows = await allowedOriginRows(db, organizationId);
  const of = (environment: ApiKeyEnvironment) => rows.find((row) => row.environment === environment)?.origins ?? [];
  return { live: of('live'), test: of('test') };
}

/**
 * Replaces an environment's list with `origins`, each checked and normalised (a 400 naming each bad one, at
 * `/origins/<index>`, and nothing changes); an origin listed twice, as written or once normalised, is refused too,
 * and so is a list longer than MAX_ALLOWED_ORIGINS (a 400 at `/origins`). The change is recorded in the audit log
 * in its transaction.
 */
export async function setAllowedOrigins(
  db: Database,
  audit: AuditContext,
  change: { organizationId: string; environment: ApiKeyEnvironment; origins: string[]; now: Date },
): Promise<string[]> {
  const { organizationId, environment, now } = change;
  const origins = normaliseOrigins(change.origins);
  await db.transaction(async (tx) => {
    await saveAllowedOrigins(tx, { organizationId, environment, origins, now });
    await recordAuditEvent(tx, audit, {
      organizationId,
      action: 'allowed_origins.updated',
      targetType: 'allowed_origins',
      targetId: environment,
      details: { environment, origins },
    });
  });
  return origins;
}

function normaliseOrigins(inputs: string[]): string[] {
  // The route's schema says so first; this is for the dashboard's forms, which add one origin to the list.
  if (inputs.length > MAX_ALLOWED_ORIGINS) {
    throw invalidFields([{ path: '/origins', message: `must have at most ${MAX_ALLOWED_ORIGINS} origins` }]);
  }
  const problems: { path: string; message: string }[] = [];
  const origins: string[] = [];
  inputs.forEach((input, index) => {
    const check = checkOrigin(input);
    if (!check.ok) problems.push({ path: `/origins/${index}`, message: check.reason });
    else if (origins.includes(check.origin)) problems.push({ path: `/origins/${index}`, message: 'is listed twice' });
    else origins.push(check.origin);
  });
  if (problems.length > 0) throw invalidFields(problems);
  return origins;
}
