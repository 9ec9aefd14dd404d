import { randomUUID } from 'node:crypto';
import { type Database, isUuid } from '@platform/db';
import { type AppError, isAppError } from '@platform/errors';
import {
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_TTL_MS,
  type HeldKeyRequest,
  type IdempotencyContext,
  requestFingerprint,
  runOnceForKey,
} from '@platform/idempotency';
import { type Locale, text } from '@platform/templates';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_CONTENT_SECURITY_POLICY } from '../../shared/html-forms.js';
import { assertActivated } from '../activation/index.js';
import type { BillingServices } from '../billing/index.js';
import type { DashboardOrganization } from './context.js';
import { listPageQuery, queryText } from './list-page-query.js';

// What the Billing pages' forms share (docs/decisions.md#dashboard-pages): their fields read loosely (checked in the
// handler, after the page guard), the key each payment form carries so that posting it twice acts once, and who asks.

/** What every Billing plugin is registered with (billing-routes.ts). */
export interface DashboardBillingOptions {
  db: Database;
  now: () => Date;
  /** The billing services the API's billing routes run with: the same providers and settlement context. */
  billing: BillingServices;
  /** Whole KES a test wallet created on first use starts with. */
  testWalletCredit: number;
  /** The origin of the card checkout a payment form sends the browser to. */
  cardCheckoutOrigin: string;
  /** The page guard of the dashboard (page-access.ts). */
  guard: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** The query of a Billing page: the notice of the form that sent here, with a list page's (the Wallet's statement). */
export const BillingPageQuery = listPageQuery({ notice: queryText(32) });

/** A form's fields, each one value (a field sent twice counts once: the first). */
export function fieldsOf(body: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, string | string[]>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && name !== '_csrf') fields[name] = first.trim();
  }
  return fields;
}

/** A new form's key: a UUID, written into the form as a hidden field. */
export const newFormKey = (): string => randomUUID();

/** The form's key when it is one this page wrote (a UUID), else undefined. */
export function formKeyOf(fields: Record<string, string>): string | undefined {
  const key = fields['key'];
  return key !== undefined && isUuid(key) ? key : undefined;
}

/** Whole KES from a form field (`12,500` and `12500` alike), from 1 to `max`; undefined for anything else. */
export function wholeKesOf(value: string | undefined, max: number): number | undefined {
  const digits = (value ?? '').replaceAll(/[\s,]/g, '');
  if (!/^\d{1,13}$/.test(digits)) return undefined;
  const amount = Number(digits);
  return amount >= 1 && amount <= max ? amount : undefined;
}

export const organizationOf = (request: FastifyRequest) => request.dashboard.organization as DashboardOrganization;

/** Who asks, for the services and the audit log. */
export function requesterOf(request: FastifyRequest) {
  return {
    organizationId: organizationOf(request).id,
    userId: request.dashboard.userId,
    audit: { actorUserId: request.dashboard.userId, requestId: request.id, ip: request.ip },
  };
}

/**
 * A payment form's key as the payment services remember it (the `startedBy` of a payment, as with the API's
 * Idempotency-Key): a second post of the same form finds the payment the first one started and starts no other. The
 * dashboard stores no answers (it answers with a redirect), so there is nothing to store or skip here.
 */
export function formIdempotency(
  request: FastifyRequest,
  key: string,
  fields: Record<string, string>,
): IdempotencyContext & HeldKeyRequest {
  const { organizationId, userId } = requesterOf(request);
  const { key: _key, ...asked } = fields;
  const fingerprint = requestFingerprint({
    method: request.method,
    route: request.routeOptions.url ?? request.url,
    params: request.params,
    query: {},
    body: asked,
  });
  return {
    key,
    scope: `dashboard:user:${userId}:organization:${organizationId}`,
    fingerprint,
    skipStoring: () => undefined,
    transaction: async (db, work) => (await db.transaction(work)).body,
    unitOfWork: () => Promise.reject(new Error('The dashboard runs no unit of work under a form key')),
  };
}

/**
 * Runs a payment form once for its key (docs/decisions.md#a-form-key-held-while-its-post-runs): the key is held in
 * the idempotency records while `work` runs, as the API's Idempotency-Key is, and the page `work` sends the browser
 * to is kept with it. So one form posted twice at the same instant starts one payment: the second post is refused
 * with `idempotency_key_in_use` (said on the page: `formBeingSent`), and one after the first has answered is sent
 * where the first was. A refusal gives the key up, so the same form can be sent again once corrected.
 */
export async function sendOnce(
  db: Database,
  form: HeldKeyRequest,
  now: Date,
  work: () => Promise<string>,
): Promise<string> {
  const { key, scope, fingerprint } = form;
  const { response } = await runOnceForKey(
    db,
    { key, scope, fingerprint },
    { now, ttlMs: DEFAULT_TTL_MS, lockTimeoutMs: DEFAULT_LOCK_TIMEOUT_MS, retryAfterSeconds: 1 },
    async () => ({ statusCode: 200, body: { location: await work() }, headers: {} }),
  );
  return (response.body as { location: string }).location;
}

/** What a payment form's refusal says on its page: the service's message, or that the same form is being sent. */
export function formProblemOf(locale: Locale, error: AppError): string {
  return error.code === 'idempotency_key_in_use' ? text(locale, 'dashboard.billing.formBeingSent') : error.message;
}

/** The page again after a form: its path with the notice to show. */
export const withNotice = (reply: FastifyReply, path: string, notice: string) =>
  reply.code(303).header('location', `${path}?notice=${notice}`).send();

/**
 * The pages' policy for a page whose form is answered with a redirect to the card checkout: browsers hold such a
 * redirect to the page's `form-action`, as the sign-in form's to the identity provider (routes.ts).
 */
export function checkoutPolicy(checkoutOrigin: string): string {
  return PAGE_CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self' ${checkoutOrigin}`);
}

/** Whether live top-ups are locked until the organization is activated: the pay service's own rule, asked. */
export async function liveTopUpsLocked(db: Database, organizationId: string): Promise<boolean> {
  try {
    await assertActivated(db, organizationId, 'live wallet top-ups');
    return false;
  } catch (error) {
    if (isAppError(error) && error.statusCode === 403) return true;
    throw error;
  }
}
