import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { maskSecrets } from './log-serializers.js';
import type {} from './route-config.js';
import type { SecretUrls } from './secret-urls.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Facts a plugin adds to the request's one line (`addRequestLogFacts`), such as an idempotent replay, instead of
     * writing a line of its own. Null until one is added (decorated by createServer).
     */
    requestLogFacts: Record<string, unknown> | null;
  }
}

/** Adds facts to the request's one log line, written when it ends (docs/decisions.md#one-log-line-per-request). */
export function addRequestLogFacts(request: FastifyRequest, facts: Record<string, unknown>): void {
  request.requestLogFacts = request.requestLogFacts === null ? facts : { ...request.requestLogFacts, ...facts };
}

/**
 * One log line per request, written when it ends, with what Fastify's "incoming request" line carried
 * (method and url) added: half the logging work of Fastify's pair of lines, and the same facts. A route with a
 * higher `logLevel` keeps its info line out, as before. No line carries a secret from the URL: see loggedUrlOf.
 */
export class SingleLineRequestLog extends LogController {
  readonly #secretUrls: SecretUrls;

  constructor(secretUrls: SecretUrls) {
    super();
    this.#secretUrls = secretUrls;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: loggedUrlOf(request, this.#secretUrls),
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
      ...request.requestLogFacts,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }

  // Only Fastify's own 404 handler logs this; the platform's replaces it, but a line must never carry the URL.
  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.info(`Route ${request.method}:${loggedUrlOf(request, this.#secretUrls)} not found`);
  }
}

/**
 * The URL to log. A route whose URL carries a secret (`config.urlCarriesSecret`) is logged by its pattern,
 * without the query string; so is a request that matched no route but looks like one of those (another
 * method, a trailing slash, other case, doubled slashes, escapes), since its URL likely holds the secret too.
 * Any other URL is logged as requested, with recognisable secrets (an API key in a query string) masked.
 */
export function loggedUrlOf(request: FastifyRequest, secretUrls: SecretUrls): string {
  const { routeOptions } = request;
  if (routeOptions.config?.urlCarriesSecret === true) return routeOptions.url ?? '(secret)';
  const unmatched = request.is404 || routeOptions.url === undefined;
  return (unmatched ? secretUrls.lookalikeOf(request.url) : undefined) ?? maskSecrets(request.url);
}
