import { serviceUnavailable, unauthorized } from '@platform/errors';
import fp from 'fastify-plugin';
import { type AuthenticatedUser, KeySetUnavailableError, type TokenVerifier } from '../auth/token-verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The token's user. Set on every route except those with `config: { public: true }`. */
    user: AuthenticatedUser;
  }
  interface FastifyContextConfig {
    /** The route needs no credentials. */
    public?: boolean;
  }
}

export interface AuthenticationOptions {
  verifyToken: TokenVerifier;
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i;

/**
 * Requires a valid bearer token on every route unless the route is marked public. Runs on onRequest, before
 * the body is read, so an unauthenticated upload is refused without being received.
 */
export const authentication = fp<AuthenticationOptions>(
  async (app, { verifyToken }) => {
    app.decorateRequest('user', null as unknown as AuthenticatedUser);

    app.addHook('onRequest', async (request) => {
      // Unknown routes answer 404 whether or not a token is sent.
      if (request.routeOptions.config.public === true || request.is404) return;

      const match = BEARER.exec(request.headers.authorization ?? '');
      if (match?.[1] === undefined) throw unauthorized();

      try {
        request.user = await verifyToken(match[1]);
      } catch (error) {
        if (error instanceof KeySetUnavailableError) {
          throw serviceUnavailable('Access tokens cannot be verified right now; retry later', { cause: error });
        }
        request.log.info({ reason: describe(error) }, 'bearer token rejected');
        throw unauthorized('Invalid or expired access token', 'Bearer error="invalid_token"');
      }
    });
  },
  { name: 'authentication', fastify: '5.x' },
);

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}
