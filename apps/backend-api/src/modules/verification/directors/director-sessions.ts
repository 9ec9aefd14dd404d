import { randomUUID } from 'node:crypto';
import type { DecisionSourceKind, UnitOfWork, VerificationSession } from '@platform/db';
import { addSessionCreated, type LifecycleOptions, requiredDocumentsFor } from '@platform/verification-lifecycle';
import { addSession, type NewSessionRow } from '../repository.js';

// Each director of a business verified against the registry verifies themselves, in a kyc session of their own
// (docs/decisions.md#directors): made by the service, paid by the business's verification (no hold of its own), in
// the business's organization, environment and language, with its callback URL, so the customer follows them as it
// follows any session. The business's hosted page gives each director their link.

export interface DirectorSessionOptions {
  /** The decision source of the environment's kyc sessions (the configuration's). */
  decisionSource: DecisionSourceKind;
  ttlMs: number;
  now: Date;
  lifecycle: LifecycleOptions;
}

/** `<the business's end user id>#director-<n>`, within the 255 characters an end user id may have. */
export function directorEndUserId(parent: Pick<VerificationSession, 'externalEndUserId'>, index: number): string {
  const suffix = `#director-${index + 1}`;
  return `${parent.externalEndUserId.slice(0, 255 - suffix.length)}${suffix}`;
}

/** Adds a pending kyc session for each of `count` directors of `parent` to the unit of work; returns their ids. */
export function addDirectorSessions(
  work: UnitOfWork,
  parent: VerificationSession,
  count: number,
  options: DirectorSessionOptions,
): string[] {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const row: NewSessionRow = {
      id: randomUUID(),
      organizationId: parent.organizationId,
      environment: parent.environment,
      apiKeyId: parent.apiKeyId,
      type: 'kyc',
      status: 'pending',
      externalEndUserId: directorEndUserId(parent, index),
      appName: parent.appName,
      callbackUrl: parent.callbackUrl,
      locale: parent.locale,
      returnUrl: null,
      privacyNoticeUrl: parent.privacyNoticeUrl,
      decisionSource: options.decisionSource,
      requiredDocuments: requiredDocumentsFor('kyc'),
      parentSessionId: parent.id,
      expiresAt: new Date(options.now.getTime() + options.ttlMs),
      createdAt: options.now,
      updatedAt: options.now,
    };
    addSession(work, row, 0);
    addSessionCreated(
      work,
      { ...row, price: 0, lastError: null, lastErrorCode: null, resubmitDocuments: null },
      'directors',
      options.lifecycle,
    );
    ids.push(row.id);
  }
  return ids;
}
