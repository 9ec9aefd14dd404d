import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import formBody from '@fastify/formbody';
import secureSession from '@fastify/secure-session';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';

// What the server-rendered surfaces of main-api share, the review console and the dashboard
// (docs/decisions.md#review-console, #dashboard-sign-in): a sealed HttpOnly cookie (@fastify/secure-session) that
// holds a server-side session's secret and the CSRF secret, CSRF tokens on every form (@fastify/csrf-protection),
// urlencoded bodies (@fastify/formbody), and the headers every page goes out with. Registered inside each surface's
// plugin, so the JSON API is untouched.

/** No script, no other site: inline styles, images and forms of this origin only. */
export const PAGE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const FORM_BODY_LIMIT = 16 * 1024;

/** Forms are checked in the handlers, so a mistake is answered on the page, not as JSON. */
export const FormBody = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]));

export interface SealedCookieSettings {
  /** 32 bytes; the same on every instance, so each opens every cookie. */
  key: Buffer;
  cookieName: string;
  cookie: {
    path: string;
    httpOnly: true;
    secure: boolean;
    sameSite: 'strict' | 'lax';
    maxAge: number;
  };
}

export async function registerHtmlForms(app: FastifyInstance, settings: SealedCookieSettings): Promise<void> {
  await app.register(cookie);
  await app.register(secureSession, settings);
  await app.register(csrfProtection, { sessionPlugin: '@fastify/secure-session' });
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT });
}

/** Sends a page: never cached, never indexed, no referrer (pages may hold signed links), under the strict CSP. */
export function sendPage(reply: FastifyReply, html: string, status = 200, csp = PAGE_CONTENT_SECURITY_POLICY) {
  return reply
    .code(status)
    .header('content-security-policy', csp)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** The answer to a form: see the other page (303, so the browser follows with a GET). */
export const redirectTo = (reply: FastifyReply, to: string) => reply.code(303).header('location', to).send();

/** Whether an error is @fastify/csrf-protection's refusal of a form (a missing or wrong token, no secret). */
export function isCsrfRefusal(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'FST_CSRF_INVALID_TOKEN' || code === 'FST_CSRF_MISSING_SECRET';
}
