import { badRequest } from '@platform/errors';
import type { FastifyInstance } from 'fastify';

/**
 * HTTP/1.1 requires a Host header (RFC 9112 section 3.2). Node's own check answers a bare 400 before Fastify
 * sees the request, so createServer turns it off (`http.requireHostHeader: false`) and refuses here instead,
 * first of all hooks, with the error envelope.
 */
export function requireHostHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      done(badRequest('HTTP/1.1 requests need a Host header'));
      return;
    }
    done();
  });
}
