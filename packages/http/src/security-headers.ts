import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export type { HelmetOptions };

/**
 * The headers helmet's middleware sets for `options`, worked out once. Without per-request values (CSP nonces),
 * they are the same on every response. Building helmet's middleware (and parsing the CSP) on every request, as
 * @fastify/helmet does, was a measurable share of a cheap read's CPU time
 * (docs/benchmarks.md#security-headers-and-the-rate-limiter-get-v1accountsme).
 */
export function securityHeadersFor(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error !== undefined && error !== null) throw error;
  });
  return headers;
}

/** Adds helmet's headers for `options` to every response of `app`. */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = securityHeadersFor(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
