import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body (undefined when there is none or it is not JSON). */
  body: unknown;
}

export interface FakeReply {
  status: number;
  body?: unknown;
}

/**
 * How a fake provider misbehaves, for the failure tests: before it acts on the request (`hang`: never
 * answers; `server_error`: answers 500), or after it has acted on it (`*_after_processing`: the charge is
 * made, the prompt sent, but the answer never comes, the connection is reset, or it answers 500), the cases
 * where the caller cannot know what happened.
 */
export type FakeBehaviour =
  | 'normal'
  | 'hang'
  | 'server_error'
  | 'hang_after_processing'
  | 'reset_after_processing'
  | 'server_error_after_processing';

export interface FakeHttpServer {
  url: string;
  /** Every request received, in order. */
  requests: FakeRequest[];
  behaviour: FakeBehaviour;
  /**
   * Called when the fake leaves a request unanswered (`hang`, `hang_after_processing`), so a test can time
   * the caller out at once (manualTimeouts().expireOnHang) instead of waiting for its limit.
   */
  onHang: ((request: FakeRequest) => void) | undefined;
  close(): Promise<void>;
}

/**
 * A JSON HTTP server on 127.0.0.1 and a random port, answering through `handle`. `behaviour` makes it
 * misbehave instead, before or after `handle` has acted on the request (see FakeBehaviour).
 */
export async function startFakeHttpServer(
  handle: (request: FakeRequest) => FakeReply | Promise<FakeReply>,
  serverErrorBody: unknown = { message: 'Internal server error' },
): Promise<FakeHttpServer> {
  const requests: FakeRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const fake: FakeHttpServer = {
    url: '',
    requests,
    behaviour: 'normal',
    onHang: undefined,
    close: async () => undefined,
  };
  const hang = (request: FakeRequest, response: ServerResponse) => {
    hanging.add(response);
    fake.onHang?.(request);
  };

  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: FakeRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: parse(text),
      };
      requests.push(request);
      const { behaviour } = fake;
      if (behaviour === 'hang') {
        hang(request, response);
        return;
      }
      const reply =
        behaviour === 'server_error'
          ? Promise.resolve({ status: 500, body: serverErrorBody })
          : Promise.resolve(handle(request));
      reply.then(
        ({ status, body }) => {
          if (behaviour === 'hang_after_processing') {
            hang(request, response);
            return;
          }
          if (behaviour === 'reset_after_processing') {
            incoming.socket.destroy();
            return;
          }
          const [sentStatus, sentBody] =
            behaviour === 'server_error_after_processing' ? [500, serverErrorBody] : [status, body];
          response.writeHead(sentStatus, { 'content-type': 'application/json' });
          response.end(sentBody === undefined ? '' : JSON.stringify(sentBody));
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(String(error));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A plain object, so its fields can be read. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
