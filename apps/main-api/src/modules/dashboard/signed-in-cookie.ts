import type { ApiKeyEnvironment, Database } from '@platform/db';
import Fastify from 'fastify';
import { registerHtmlForms } from '../../shared/html-forms.js';
import { DASHBOARD_SESSION_MS, dashboardSessionStoreOf } from './service.js';
import { dashboardCookieSettings } from './session-cookie.js';

// A signed-in browser's dashboard cookie without the identity provider, for the bench's page rows (tools/bench,
// docs/benchmarks.md): the session the sign-in callback opens, sealed as the dashboard seals it, with the form
// token's secret and the organization and data already chosen, so every request with it is a page view of a
// browser that has signed in and looked around (nothing left to write to the cookie).

export interface SignedInCookieInput {
  db: Database;
  userId: string;
  /** DASHBOARD_SESSION_SECRET of the service that will open the cookie. */
  sessionSecret: string;
  /** PUBLIC_URL of that service (it names the cookie: `__Host-` outside local runs). */
  publicUrl: string;
  organizationId: string;
  environment: ApiKeyEnvironment;
  now: Date;
}

/** The `Cookie` header of a signed-in browser. */
export async function openSignedInCookie(input: SignedInCookieInput): Promise<string> {
  const { now } = input;
  const tokensExpireAt = new Date(now.getTime() + DASHBOARD_SESSION_MS);
  const opened = await dashboardSessionStoreOf(input.db).open({ userId: input.userId, tokensExpireAt, now });
  if (opened === null) throw new Error('The dashboard session did not open');
  const settings = dashboardCookieSettings(input.sessionSecret, input.publicUrl);
  const sealer = Fastify({ logger: false });
  try {
    await registerHtmlForms(sealer, settings);
    sealer.get('/', async (request, reply) => {
      request.session.set('dashboardSession', opened.secret);
      request.session.set('dashboardOrganization', input.organizationId);
      request.session.set('dashboardEnvironment', input.environment);
      reply.generateCsrf();
      return '';
    });
    const answer = await sealer.inject({ method: 'GET', url: '/' });
    const line = ([answer.headers['set-cookie'] ?? []].flat() as string[]).find((each) =>
      each.startsWith(`${settings.cookieName}=`),
    );
    if (line === undefined) throw new Error('The dashboard cookie was not sealed');
    return line.split(';')[0] as string;
  } finally {
    await sealer.close();
  }
}
