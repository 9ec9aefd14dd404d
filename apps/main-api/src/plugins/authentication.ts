import { type AppError, isAppError, serviceUnavailable, unauthorized } from '@platform/errors';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type AuthenticatedUser, KeySetUnavailableError, type TokenVerifier } from '../auth/token-verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The token's user. Set on every route except those with `config: { public: true }`. */
    user: AuthenticatedUser;
    /**
     * Why the request's credentials were refused, found in onRequest and thrown in preParsing, so the rate
     * limiter (a route-level onRequest hook, run after this instance-level one) counts the request against its
     * client IP first. Undefined or null when the credentials are fine.
     */
    authenticationFailure: AppError | null;
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

/** The user behind the request's token, or null when it has none or an invalid one (or the route is public). */
export function authenticatedUserOf(request: FastifyRequest): AuthenticatedUser | null {
  // Routes registered before this plugin (probes, the 404 handler) never received the decoration.
  return (request.user as AuthenticatedUser | null | undefined) ?? null;
}

/**
 * Requires a valid bearer token on every route unless the route is marked public. The token is checked on
 * onRequest; a refusal is thrown on preParsing, after the rate limit and before the body is read, so an
 * unauthenticated upload is refused without being received and token guessing spends the client IP's budget.
 */
export const authentication = fp<AuthenticationOptions>(
  async (app, { verifyToken }) => {
    app.decorateRequest('user', null as unknown as AuthenticatedUser);
    app.decorateRequest('authenticationFailure', null);

    const resolveUser = async (request: FastifyRequest): Promise<AuthenticatedUser> => {
      const match = BEARER.exec(request.headers.authorization ?? '');
      if (match?.[1] === undefined) throw unauthorized();
      try {
        return await verifyToken(match[1]);
      } catch (error) {
        if (error instanceof KeySetUnavailableError) {
          throw serviceUnavailable('Access tokens cannot be verified right now; retry later', { cause: error });
        }
        request.log.info({ reason: describe(error) }, 'bearer token rejected');
        throw unauthorized('Invalid or expired access token', 'Bearer error="invalid_token"');
      }
    };

    // Callback hooks rather than async ones: they run on every request, and an async hook costs Fastify a promise
    // and a turn of the microtask queue more (docs/benchmarks.md#per-request-checks-every-endpoint-26-nov).
    app.addHook('onRequest', (request, _reply, done) => {
      // Unknown routes answer 404 whether or not a token is sent.
      if (request.routeOptions.config.public === true || request.is404) {
        done();
        return;
      }
      resolveUser(request).then(
        (user) => {
          request.user = user;
          done();
        },
        (error: unknown) => {
          if (!isAppError(error)) {
            done(error as Error);
            return;
          }
          request.authenticationFailure = error;
          done();
        },
      );
    });

    app.addHook('preParsing', (request, _reply, _payload, done) => {
      done(request.authenticationFailure ?? undefined);
    });
  },
  { name: 'authentication', fastify: '5.x' },
);

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}
