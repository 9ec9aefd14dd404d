import type {
  Database,
  DatabaseExecutor,
  DecisionSourceKind,
  SessionLocale,
  VerificationSession,
  VerificationStatus,
} from '@platform/db';
import { conflict, notFound, organizationNotActivated, serviceUnavailable } from '@platform/errors';
import {
  findOrganizationActivation,
  lockOrganizationActivation,
  type OrganizationActivation,
  setActivationSession,
} from '@platform/organizations';
import { createActivationSession, findSession, type LifecycleOptions } from '@platform/verification-lifecycle';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import type { ActivationView } from './schemas.js';

// Going live (docs/decisions.md#going-live): an organization is activated when its owner's business verification,
// the platform's own live KYB session of it, is verified. Until then live API keys and live top-ups are refused
// with `organization_not_activated`; test keys and test top-ups work from the start.

export interface ActivationSettings {
  /** PLATFORM_ORGANIZATION_ID: the organization that owns the activation sessions. Unset: activation is off. */
  platformOrganizationId: string | undefined;
  /** VERIFY_URL: where backend-api serves the hosted page, without a trailing slash; unset: no URL is answered. */
  verifyUrl: string | undefined;
  /** ACTIVATION_DECISION_SOURCE: who decides activation sessions (reviewers unless configured). */
  decisionSource: DecisionSourceKind;
  /** ACTIVATION_SESSION_TTL_HOURS, in milliseconds. */
  sessionTtlMs: number;
}

// The organization guard's 404 (organizations' ORGANIZATION_NOT_FOUND), for a row gone since it ran; the
// organizations module depends on billing, which depends on this one, so it is not imported.
const ORGANIZATION_NOT_FOUND = 'Organization not found';

/** What is refused until activation, for the refusal's message. */
export type LiveUse = 'live API keys' | 'live wallet top-ups';

/** The statuses of a session still open: the owner can go on with it, so a start answers it. */
const openStatuses: ReadonlySet<VerificationStatus> = new Set(['pending', 'processing', 'requires_input']);

const ACTIVATION_NOT_CONFIGURED =
  "Activation is not available: the platform's organization (PLATFORM_ORGANIZATION_ID) is not configured";
export const ALREADY_ACTIVATED = 'This organization is activated already: live API keys and live top-ups are unlocked';

/** The 403 `organization_not_activated` for a live use of an organization that is not activated. */
function notActivated(organizationId: string, use: LiveUse) {
  return organizationNotActivated(
    `This organization is not activated yet, so ${use} are locked. Its owner verifies the business to unlock them: ` +
      `POST /v1/organizations/${organizationId}/activation opens the verification (GET it for the state). ` +
      'Test keys and test top-ups work now.',
  );
}

/** Throws `notActivated` unless the organization is activated. */
export async function assertActivated(db: Database, organizationId: string, use: LiveUse): Promise<void> {
  const activation = await findOrganizationActivation(db, organizationId);
  if (activation?.activatedAt === null) throw notActivated(organizationId, use);
}

/** Whether the organization is activated: live API keys and live top-ups unlocked. False for an unknown one. */
export async function isActivated(db: Database, organizationId: string): Promise<boolean> {
  const activation = await findOrganizationActivation(db, organizationId);
  return activation !== undefined && activation.activatedAt !== null;
}

function reasonOf(activation: OrganizationActivation, session: VerificationSession | undefined): string | null {
  if (activation.activatedAt !== null) return null;
  if (session === undefined) {
    return 'Live API keys and live top-ups are locked until the owner verifies the business: start the verification.';
  }
  switch (session.status) {
    case 'pending':
    case 'requires_input':
      return 'Live is locked until the business verification is finished: open verificationUrl to go on with it.';
    case 'processing':
      return 'Live is locked while the business verification is reviewed: nothing to do but wait for the decision.';
    case 'rejected':
      return `The business verification was rejected (${session.lastError ?? 'no reason given'}): start a new one.`;
    default:
      return `The business verification was ${session.status}: start a new one to unlock live.`;
  }
}

function viewOf(
  settings: ActivationSettings,
  activation: OrganizationActivation,
  session: VerificationSession | undefined,
): ActivationView {
  const state =
    activation.activatedAt !== null
      ? 'activated'
      : session && openStatuses.has(session.status)
        ? 'verifying'
        : 'not_started';
  return {
    state,
    activatedAt: activation.activatedAt?.toISOString() ?? null,
    reason: reasonOf(activation, session),
    session:
      session === undefined
        ? null
        : {
            sessionId: session.id,
            status: session.status,
            verificationUrl: settings.verifyUrl === undefined ? null : `${settings.verifyUrl}/session/${session.id}`,
            lastError: session.lastError,
            expiresAt: session.expiresAt.toISOString(),
          },
  };
}

async function sessionOf(
  db: DatabaseExecutor,
  settings: ActivationSettings,
  activation: OrganizationActivation,
): Promise<VerificationSession | undefined> {
  if (activation.activationSessionId === null || settings.platformOrganizationId === undefined) return undefined;
  return findSession(db, activation.activationSessionId, {
    organizationId: settings.platformOrganizationId,
    environment: 'live',
  });
}

/** The organization's activation state, with its latest activation session. */
export async function getActivation(
  db: Database,
  settings: ActivationSettings,
  organizationId: string,
): Promise<ActivationView> {
  const activation = await findOrganizationActivation(db, organizationId);
  if (activation === undefined) throw notFound(ORGANIZATION_NOT_FOUND);
  return viewOf(settings, activation, await sessionOf(db, settings, activation));
}

/**
 * Starts the organization's activation: its open activation session when it has one (`created` false), else a new
 * one (`created` true), named on the organization and recorded in the audit log. The organization's row is locked
 * first, so two starts open one session. 409 when it is activated already; 503 without a platform organization.
 */
export async function startActivation(
  db: Database,
  settings: ActivationSettings,
  request: {
    organizationId: string;
    userId: string;
    now: Date;
    audit: AuditContext;
    lifecycle: LifecycleOptions;
    /** The hosted page's language and the way back from its final page: the dashboard's, when it starts one. */
    page?: { locale: SessionLocale; returnUrl: string };
  },
): Promise<{ created: boolean; activation: ActivationView }> {
  const { platformOrganizationId } = settings;
  if (platformOrganizationId === undefined) throw serviceUnavailable(ACTIVATION_NOT_CONFIGURED);
  return db.transaction(async (tx) => {
    const activation = await lockOrganizationActivation(tx, request.organizationId);
    if (activation === undefined) throw notFound(ORGANIZATION_NOT_FOUND);
    if (activation.activatedAt !== null) throw conflict(ALREADY_ACTIVATED);
    const open = await sessionOf(tx, settings, activation);
    if (open !== undefined && openStatuses.has(open.status)) {
      return { created: false, activation: viewOf(settings, activation, open) };
    }
    const session = await createActivationSession(
      tx,
      {
        organizationId: request.organizationId,
        platformOrganizationId,
        decisionSource: settings.decisionSource,
        locale: request.page?.locale ?? 'en',
        returnUrl: request.page?.returnUrl ?? null,
        actor: `user:${request.userId}`,
        now: request.now,
        ttlMs: settings.sessionTtlMs,
      },
      request.lifecycle,
    );
    await setActivationSession(tx, request.organizationId, session.id);
    await recordAuditEvent(tx, request.audit, {
      organizationId: request.organizationId,
      action: 'organization.activation_started',
      targetType: 'organization',
      targetId: request.organizationId,
      details: { sessionId: session.id, previousSessionId: open?.id ?? null },
    });
    return {
      created: true,
      activation: viewOf(settings, { ...activation, activationSessionId: session.id }, session),
    };
  });
}
