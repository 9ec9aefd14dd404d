import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type {} from './route-config.js';

/**
 * One log line per request, written when it ends, with what Fastify's "incoming request" line carried
 * (method and url) added: half the logging work of Fastify's pair of lines, and the same facts. A route with a
 * higher `logLevel` keeps its info line out, as before; a route whose URL holds a secret
 * (`config.urlCarriesSecret`) is logged by its pattern, so not even an error line carries the secret.
 */
export class SingleLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { method: request.method, url: loggedUrlOf(request), statusCode: reply.statusCode, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** The URL to log: as requested, or the route's pattern when the URL carries a secret. */
export function loggedUrlOf(request: FastifyRequest): string {
  const { routeOptions } = request;
  if (routeOptions.config?.urlCarriesSecret === true) return routeOptions.url ?? '(secret)';
  return request.url;
}
