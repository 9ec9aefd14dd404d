import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type ClassifiedError, classifyError } from './classify-error.js';
import { type ErrorEnvelope, errorEnvelopeSchema } from './envelope-schema.js';

function envelopeOf(classified: ClassifiedError, request: FastifyRequest): ErrorEnvelope {
  const envelope: ErrorEnvelope = {
    success: false,
    error: classified.message,
    code: classified.code,
    requestId: String(request.id),
  };
  if (classified.details !== undefined) envelope.details = classified.details;
  return envelope;
}

function bodyLimitOf(request: FastifyRequest): number | undefined {
  // Not set on requests that failed before routing (e.g. a malformed URL).
  const limit = (request.routeOptions as { bodyLimit?: unknown } | undefined)?.bodyLimit;
  return typeof limit === 'number' ? limit : undefined;
}

/**
 * Sends the error envelope for anything thrown while handling a request. Server faults are logged
 * with their cause and the request id; their internals never reach the client.
 */
export function sendErrorEnvelope(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const classified = classifyError(error, {
    contentType: request.headers['content-type'],
    bodyLimit: bodyLimitOf(request),
    requestAborted: request.raw.readableAborted,
  });
  if (classified.serverFault) {
    request.log.error({ err: error, code: classified.code }, 'request failed with a server error');
  } else {
    request.log.info({ code: classified.code, statusCode: classified.statusCode }, classified.message);
  }
  if (classified.headers !== undefined) reply.headers(classified.headers);
  // A handler may have set another content type before failing.
  reply.type('application/json; charset=utf-8');
  return reply.code(classified.statusCode).send(envelopeOf(classified, request));
}

/** Sends the 404 envelope for a request that matched no route. */
export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? request.url;
  const envelope: ErrorEnvelope = {
    success: false,
    error: `Route ${request.method} ${path} not found`,
    code: 'not_found',
    requestId: String(request.id),
  };
  return reply.code(404).type('application/json; charset=utf-8').send(envelope);
}

async function errorEnvelopePlugin(app: FastifyInstance): Promise<void> {
  app.addSchema(errorEnvelopeSchema);
  app.setErrorHandler((error: FastifyError, request, reply) => sendErrorEnvelope(error, request, reply));
  app.setNotFoundHandler((request, reply) => sendRouteNotFound(request, reply));
}

/** Installs the error handler, the not-found handler and the `ErrorEnvelope` shared schema. */
export const errorEnvelope = fp(errorEnvelopePlugin, { name: '@platform/errors', fastify: '5.x' });
