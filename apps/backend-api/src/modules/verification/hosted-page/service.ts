import {
  type Database,
  isUuid,
  type SessionLocale,
  unitOfWorkIn,
  type VerificationSession,
  type VerificationStatus,
} from '@platform/db';
import { isAppError } from '@platform/errors';
import {
  effectiveRetentionDays,
  findAllowedOrigins,
  findOrganizationName,
  findVerificationRetentionDays,
  type VerificationRetentionBounds,
} from '@platform/organizations';
import { commitMove, type LifecycleOptions, moveSession, readAnySession } from '../index.js';
import { type NoticeCode, type SandboxAction, sandboxActionsFor } from './page.js';
import { consentedTextVersions, insertConsent, lockSessionStatus, saveDraftToken } from './repository.js';

// What the hosted page does with a session: find it by the id in its URL, record the person's consent before
// anything is captured, and move it with the sandbox buttons through the same lifecycle as everything else (actor
// `hosted_page`).

/**
 * The version of the consent notice's text (both languages), recorded with each consent. A change to what the
 * notice says gets a new version, so the exact wording a person agreed to can always be found again (git history
 * of strings.ts at that version), and only consent to this version counts: a person who agreed to an earlier one
 * is asked again before anything more is captured (docs/decisions.md#consent-before-capture).
 */
export const CONSENT_TEXT_VERSION = 'consent-2026-11';
/** A user agent is kept for evidence, not analysis: anything longer is cut. */
const USER_AGENT_MAX_LENGTH = 512;

/** The statuses in which a person sends documents: none may be captured before their consent. */
const captureStatuses: readonly VerificationStatus[] = ['pending', 'requires_input'];

const moves: Record<SandboxAction, { to: VerificationStatus; notice: NoticeCode }> = {
  submit: { to: 'processing', notice: 'submitted' },
  approve: { to: 'verified', notice: 'approved' },
  reject: { to: 'rejected', notice: 'rejected' },
  request_resubmission: { to: 'requires_input', notice: 'resubmission_requested' },
};

/** The session the page's URL names; anything that is not a session id is no session. */
export async function findPageSession(db: Database, id: string): Promise<VerificationSession | undefined> {
  return isUuid(id) ? readAnySession(db, id) : undefined;
}

/** Whether the page must ask for consent, and whether for the first time. */
export type ConsentAsk = 'none' | 'first' | 'again';

/**
 * What the page must ask before anything else: nothing (`none`) unless the session waits for documents and the
 * person has not agreed to the current text; `first` when they never agreed, `again` when they agreed only to an
 * earlier version of the notice (the page then says it changed).
 */
export async function consentToAsk(db: Database, session: VerificationSession): Promise<ConsentAsk> {
  if (!captureStatuses.includes(session.status)) return 'none';
  const versions = await consentedTextVersions(db, session.id);
  if (versions.includes(CONSENT_TEXT_VERSION)) return 'none';
  return versions.length === 0 ? 'first' : 'again';
}

/** Whether nothing may be captured or submitted yet: the person has not agreed to the current consent text. */
export async function needsConsent(db: Database, session: VerificationSession): Promise<boolean> {
  return (await consentToAsk(db, session)) !== 'none';
}

/**
 * Who the consent notice names as the data controller: the app the customer named on the session, or else the
 * customer's organization (the Act requires the person to know who collects their data).
 */
export async function dataControllerOf(db: Database, session: VerificationSession): Promise<string | undefined> {
  return session.appName ?? (await findOrganizationName(db, session.organizationId));
}

/** The days the session's organization keeps its records after the final status (docs/decisions.md#retention-per-organization). */
export async function retentionDaysOf(
  db: Database,
  session: VerificationSession,
  bounds: VerificationRetentionBounds,
): Promise<number> {
  return effectiveRetentionDays(await findVerificationRetentionDays(db, session.organizationId), bounds);
}

/**
 * The origins the session's organization allows, in the session's environment, to frame its page and hear from it
 * through the front-end SDK (docs/decisions.md#allowed-origins); none when it set none.
 */
export function allowedOriginsOf(db: Database, session: VerificationSession): Promise<string[]> {
  return findAllowedOrigins(db, session.organizationId, session.environment);
}

/**
 * Records the person's agreement to the current consent notice, once per session and text version: a second
 * agreement (a double click, a second tab) finds the first under the session's row lock and adds nothing; an
 * agreement to an earlier version stays as it was. A session that no longer waits for documents records nothing
 * (`moved_on`).
 */
export async function recordConsent(
  db: Database,
  session: VerificationSession,
  consent: { locale: SessionLocale; ip: string; userAgent: string | undefined; now: Date },
): Promise<NoticeCode> {
  return db.transaction(async (tx) => {
    const status = await lockSessionStatus(tx, session.id);
    if (status === undefined || !captureStatuses.includes(status)) return 'moved_on';
    if ((await consentedTextVersions(tx, session.id)).includes(CONSENT_TEXT_VERSION)) return 'consent_recorded';
    await insertConsent(tx, {
      sessionId: session.id,
      textVersion: CONSENT_TEXT_VERSION,
      locale: consent.locale,
      ip: consent.ip,
      userAgent: consent.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
      createdAt: consent.now,
    });
    return 'consent_recorded';
  });
}

/** Whether the person agreed to some version of the consent notice on this session, the current one or an earlier one. */
export async function consentedBefore(db: Database, session: VerificationSession): Promise<boolean> {
  return (await consentedTextVersions(db, session.id)).length > 0;
}

/**
 * The person declines the consent notice: the session ends, canceled with lastErrorCode `consent_declined`, its held
 * price released and the customer's callback sent, since nothing may be collected without consent and the money
 * should not wait for the expiry (docs/decisions.md#declined-consent). Under the session's row lock, like an
 * agreement: a session no longer waiting for documents (`moved_on`), or whose person agreed to the current notice
 * meanwhile in another tab (`consent_recorded`), is left as it is.
 */
export async function declineConsent(
  db: Database,
  session: VerificationSession,
  now: Date,
  lifecycle: LifecycleOptions,
): Promise<'declined' | NoticeCode> {
  try {
    return await db.transaction(async (tx) => {
      const status = await lockSessionStatus(tx, session.id);
      if (status === undefined || !captureStatuses.includes(status)) return 'moved_on';
      if ((await consentedTextVersions(tx, session.id)).includes(CONSENT_TEXT_VERSION)) return 'consent_recorded';
      await unitOfWorkIn(tx, (work) =>
        moveSession(
          work,
          { sessionId: session.id, to: 'canceled', actor: 'hosted_page', errorCode: 'consent_declined', now },
          lifecycle,
        ),
      );
      return 'declined';
    });
  } catch (error) {
    if (isAppError(error) && error.code === 'conflict') return 'moved_on';
    throw error;
  }
}

/**
 * Applies a sandbox button to the session as the page showed it, and says what the page should say next. A button
 * the session's status no longer offers, or a move another one beat, changes nothing (`moved_on`).
 */
export async function applySandboxAction(
  db: Database,
  session: VerificationSession,
  { action, reason, now }: { action: SandboxAction; reason: string | undefined; now: Date },
  lifecycle: LifecycleOptions,
): Promise<NoticeCode> {
  if (!sandboxActionsFor(session.status).includes(action)) return 'moved_on';
  try {
    await commitMove(db, { sessionId: session.id, to: moves[action].to, actor: 'hosted_page', reason, now }, lifecycle);
  } catch (error) {
    if (isAppError(error) && error.code === 'conflict') return 'moved_on';
    throw error;
  }
  return moves[action].notice;
}

/**
 * Keeps what the person typed into the capture form on the session, sealed (draft.ts), between the upload, the
 * review and the submit; null clears it (docs/decisions.md#hosted-capture).
 */
export function keepDraft(db: Database, sessionId: string, sealedDraft: string | null): Promise<void> {
  return saveDraftToken(db, sessionId, sealedDraft);
}
