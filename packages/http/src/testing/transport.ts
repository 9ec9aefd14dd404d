import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';

// Helpers for tests that speak HTTP over real sockets to a listening app: what inject cannot show
// (Node's parser, connection handling, clients still sending when the answer comes).

const SOCKET_IDLE_LIMIT_MS = 30_000;

/** The base URL (`http://127.0.0.1:<port>`) of an app listening on an IPv4 address. */
export function baseUrlOf(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The app is not listening on a TCP port');
  return `http://127.0.0.1:${address.port}`;
}

/** A pino logger that keeps every line it writes, as text, for assertions on what was (not) logged. */
export function capturingLogger(level: 'debug' | 'info' = 'info'): { logger: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

export type RawAnswer = {
  statusLine: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
};

export function parseRawAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`No complete response head in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...headerLines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { statusLine, headers, body: text.slice(end + 4) };
}

/**
 * Writes `bytes` on a fresh connection to `baseUrl`, reads until the server closes the connection and
 * parses what came back. Rejects if the connection fails (reset included) or stays silent for 30 s.
 */
export function sendRawRequest(baseUrl: string, bytes: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    socket.setTimeout(SOCKET_IDLE_LIMIT_MS, () => socket.destroy(new Error('The server neither answered nor closed')));
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.once('error', reject);
    socket.once('close', (hadError) => {
      if (!hadError) {
        try {
          resolve(parseRawAnswer(Buffer.concat(received).toString('latin1')));
        } catch (error) {
          reject(error);
        }
      }
    });
    socket.end(bytes);
  });
}

export type UploadAnswer = {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The error code the client saw while sending or after the answer (EPIPE, ECONNRESET...), if any. */
  clientError?: string;
};

/** A JSON document of exactly `size` bytes: `{"pad":"aaa…"}`. */
export function jsonOfSize(size: number): string {
  const frame = '{"pad":""}';
  return `{"pad":"${'a'.repeat(Math.max(0, size - frame.length))}"}`;
}

async function answerOf(response: Response): Promise<UploadAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text() };
}

/** POSTs (or `method`s) `body` with the global fetch (undici), which sends its Content-Length. */
export async function uploadWithFetch(
  url: string,
  body: string | Buffer,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<UploadAnswer> {
  const response = await fetch(url, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return answerOf(response);
}

/** Like uploadWithFetch, with a ReadableStream body of `size` bytes of JSON in 1 MiB pieces (sent chunked). */
export async function uploadStreamWithFetch(
  url: string,
  size: number,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<UploadAnswer> {
  const document = Buffer.from(jsonOfSize(size));
  const piece = 1024 * 1024;
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= document.length) {
        controller.close();
        return;
      }
      controller.enqueue(document.subarray(offset, offset + piece));
      offset += piece;
    },
  });
  const response = await fetch(url, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body,
    duplex: 'half',
  } as RequestInit);
  return answerOf(response);
}

/**
 * Streams `size` bytes of JSON with http.request in 64 KiB writes, waiting for drain as a careful client
 * does (chunked unless `contentLength`). Resolves once the request is over, with the answer and any error
 * the client saw on the way.
 */
export function uploadWithHttpRequest(
  url: string,
  size: number,
  init: { method?: string; headers?: Record<string, string>; contentLength?: boolean } = {},
): Promise<UploadAnswer> {
  const document = Buffer.from(jsonOfSize(size));
  const piece = 64 * 1024;
  return new Promise((resolve, reject) => {
    let answer: Omit<UploadAnswer, 'clientError'> | undefined;
    let clientError: string | undefined;
    const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
    if (init.contentLength === true) headers['content-length'] = String(document.length);
    const request = httpRequest(
      url,
      { method: init.method ?? 'POST', headers, timeout: SOCKET_IDLE_LIMIT_MS },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => {
          answer = {
            status: response.statusCode ?? 0,
            headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, String(value)])),
            body: Buffer.concat(chunks).toString(),
          };
        });
      },
    );
    request.once('timeout', () => request.destroy(new Error('The server neither answered nor closed')));
    request.on('error', (error: NodeJS.ErrnoException) => {
      clientError ??= error.code ?? error.message;
    });
    request.once('close', () => {
      // The response may still be delivering its last events.
      setImmediate(() => {
        if (answer === undefined) reject(new Error(`No answer; the client saw ${clientError ?? 'no error'}`));
        else resolve(clientError === undefined ? answer : { ...answer, clientError });
      });
    });
    let offset = 0;
    const writeMore = (): void => {
      while (offset < document.length && !request.destroyed) {
        const next = document.subarray(offset, offset + piece);
        offset += piece;
        if (!request.write(next)) {
          request.once('drain', writeMore);
          return;
        }
      }
      if (!request.destroyed) request.end();
    };
    writeMore();
  });
}
