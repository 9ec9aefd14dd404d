import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, type ErrorEnvelope, statusCodeOf } from '@platform/errors';
import type { FastifyBaseLogger } from 'fastify';
import { requestIdFrom, requestIdHeader } from './request-id.js';
import { isDrainingUnreadBody } from './unread-body.js';

/** What Node hands the server's `clientError` listener (Fastify's `ConnectionError`, loosened). */
export type ClientError = Error & { code?: string };

type Answer = { code: ErrorCode; message: string } | 'bare-timeout';

// Node's own answers to these, with the envelope's codes. The messages are fixed: the parser's reason could
// be anything later, and nothing of the refused bytes may come back.
function answerTo(errorCode: string | undefined): Answer {
  switch (errorCode) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'request_header_fields_too_large', message: 'Request header fields are too large' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'payload_too_large', message: 'Request chunk extensions are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      // The envelope has no code for a 408; Node's bare answer stays.
      return 'bare-timeout';
    default:
      return { code: 'bad_request', message: 'Request is not valid HTTP' };
  }
}

function rawResponse(statusCode: number, headers: Record<string, string>, body = ''): string {
  const lines = [`HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? ''}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

function envelopeResponse(code: ErrorCode, message: string, requestId: string): string {
  const envelope: ErrorEnvelope = { success: false, error: message, code, requestId };
  const body = JSON.stringify(envelope);
  return rawResponse(
    statusCodeOf[code],
    {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
      [requestIdHeader]: requestId,
    },
    body,
  );
}

/** Whether a response of the request in flight has already started on this socket. */
function responseStarted(socket: Socket): boolean {
  // Node's own clientError answer checks the same (internal) field before writing.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return inFlight?.headersSent === true;
}

/**
 * Fastify's `clientErrorHandler` (bound to the instance). Answers what Node's HTTP parser refuses before
 * Fastify sees a request (a header block over the limit, a malformed request line, header or chunked body)
 * with the error envelope instead of a bare status, then closes the connection, as Node does. Logged once
 * at info with the parser's code and the request id, never the refused bytes (`rawPacket`) nor the parser's
 * message.
 */
export function answerClientError(this: { log: FastifyBaseLogger }, error: ClientError, socket: Socket): void {
  // The peer reset the connection, or stopped sending a body that was already answered: no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed || isDrainingUnreadBody(socket)) {
    socket.destroy();
    return;
  }
  const requestId = requestIdFrom(undefined);
  // Node writes nothing either on a closed socket or over a response already under way.
  if (!socket.writable || responseStarted(socket)) {
    this.log.debug({ reqId: requestId, code: error.code }, 'connection closed by the HTTP parser');
    socket.destroy();
    return;
  }
  const answer = answerTo(error.code);
  const statusCode = answer === 'bare-timeout' ? 408 : statusCodeOf[answer.code];
  this.log.info({ reqId: requestId, code: error.code, statusCode }, 'request refused by the HTTP parser');
  socket.write(
    answer === 'bare-timeout'
      ? rawResponse(408, { connection: 'close', [requestIdHeader]: requestId })
      : envelopeResponse(answer.code, answer.message, requestId),
  );
  socket.destroy();
}
