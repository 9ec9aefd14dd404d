import type { ApiKeyOwner, Database, VerificationDocument } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { conflict, notFound } from '@platform/errors';
import { recordServiceAuditEvent } from '@platform/organizations';
import { finalStatuses, findSession, listTransitions, openSubmittedDetails } from '@platform/verification-lifecycle';
import { listSessionChecks, openCheckEvidence, openVerifiedOutputs } from '../checks/index.js';
import { SESSION_NOT_FOUND } from '../index.js';
import { type ArchiveFile, jsonFile, signedArchive } from './archive.js';
import { listConsents, listStoredDocuments } from './repository.js';
import type { ExportSigningKey } from './signing-keys.js';

// Export before erasure (docs/decisions.md#verification-export): everything the platform still holds of a final
// session, decrypted, in one signed archive the business keeps for its own records.

const EXTENSIONS: Record<VerificationDocument['contentType'], string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

const NOT_FINAL = 'Only a verified, rejected, expired or canceled session can be exported';
const ALREADY_ERASED = "The session's personal data was erased: there is nothing left to export";

interface SessionExport {
  zip: Uint8Array;
  kid: string;
}

export async function exportSession(
  db: Database,
  vault: DocumentVault,
  input: {
    sessionId: string;
    owner: ApiKeyOwner;
    key: ExportSigningKey;
    now: Date;
    audit: { apiKeyId: string; requestId: string; ip: string };
  },
): Promise<SessionExport> {
  const { sessionId, owner, key, now } = input;
  const session = await findSession(db, sessionId, owner);
  if (session === undefined) throw notFound(SESSION_NOT_FOUND);
  if (!finalStatuses.includes(session.status)) throw conflict(NOT_FINAL);
  if (session.personalDataErasedAt !== null) throw conflict(ALREADY_ERASED);

  const [documents, checks, transitions, consents] = await Promise.all([
    listStoredDocuments(db, session.id),
    listSessionChecks(db, session.id),
    listTransitions(db, session.id),
    listConsents(db, session.id),
  ]);
  const files: ArchiveFile[] = [];
  const documentEntries = [];
  for (const document of documents) {
    const read = await vault.read(document.storageKey);
    if (read === null) continue;
    const name = `documents/${document.kind}-${document.id}.${EXTENSIONS[document.contentType]}`;
    files.push({ name, bytes: read.bytes });
    documentEntries.push({
      file: name,
      id: document.id,
      kind: document.kind,
      contentType: document.contentType,
      createdAt: document.createdAt,
      supersededAt: document.supersededAt,
    });
  }
  const details = openSubmittedDetails(vault, session);
  if (details !== undefined) files.push(jsonFile('details.json', details));
  const verified = openVerifiedOutputs(vault, session);
  if (verified !== undefined) files.push(jsonFile('verified.json', verified));
  const checkRecords = checks.map((check) => ({
    kind: check.kind,
    source: check.source,
    outcome: check.outcome,
    code: check.code,
    summary: check.summary,
    details: check.details,
    createdAt: check.createdAt,
    evidence: openCheckEvidence(vault, session, check) ?? null,
  }));
  files.push(jsonFile('checks.json', checkRecords));
  const history = transitions.map((transition) => ({
    from: transition.fromStatus,
    to: transition.toStatus,
    actor: transition.actor,
    reason: transition.reason,
    at: transition.createdAt,
  }));
  files.push(jsonFile('history.json', history));
  const consentRecords = consents.map((consent) => ({
    textVersion: consent.textVersion,
    locale: consent.locale,
    at: consent.createdAt,
    ip: consent.ip,
    userAgent: consent.userAgent,
  }));
  files.push(jsonFile('consent.json', consentRecords));
  files.push(jsonFile('documents.json', documentEntries));

  const decided = [...history].reverse().find((transition) => finalStatuses.includes(transition.to));
  const manifest = {
    format: 'platform-verification-export/1',
    exportedAt: now,
    session: {
      id: session.id,
      organizationId: session.organizationId,
      type: session.type,
      environment: session.environment,
      status: session.status,
      externalEndUserId: session.externalEndUserId,
      decisionSource: session.decisionSource,
      createdAt: session.createdAt,
      completedAt: session.completedAt,
    },
    decision:
      decided === undefined ? null : { status: decided.to, by: decided.actor, at: decided.at, reason: decided.reason },
    checks: checks.map((check) => ({
      kind: check.kind,
      source: check.source,
      outcome: check.outcome,
      code: check.code,
      at: check.createdAt,
    })),
    consent: consentRecords.map(({ textVersion, locale, at }) => ({ textVersion, locale, at })),
  };
  const archive = signedArchive(files, manifest, key);
  // The session and the signing key, never the contents; an API key acts, so its id stands for the actor.
  const { apiKeyId, requestId, ip } = input.audit;
  await recordServiceAuditEvent(db, {
    organizationId: session.organizationId,
    action: 'verification.exported',
    targetType: 'verification_session',
    targetId: session.id,
    requestId,
    ip,
    details: { sessionId: session.id, keyId: key.kid, apiKeyId },
  });
  return { zip: archive.zip, kid: key.kid };
}
