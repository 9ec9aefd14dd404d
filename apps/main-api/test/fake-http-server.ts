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

/** How a fake provider misbehaves, for the failure tests. */
export type FakeBehaviour = 'normal' | 'hang' | 'server_error';

export interface FakeHttpServer {
  url: string;
  /** Every request received, in order. */
  requests: FakeRequest[];
  behaviour: FakeBehaviour;
  close(): Promise<void>;
}

/**
 * A JSON HTTP server on 127.0.0.1 and a random port, answering through `handle`. `behaviour` makes it
 * never answer (`hang`) or answer 500 (`server_error`) instead.
 */
export async function startFakeHttpServer(
  handle: (request: FakeRequest) => FakeReply | Promise<FakeReply>,
  serverErrorBody: unknown = { message: 'Internal server error' },
): Promise<FakeHttpServer> {
  const requests: FakeRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const fake: FakeHttpServer = { url: '', requests, behaviour: 'normal', close: async () => undefined };

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
      if (fake.behaviour === 'hang') {
        hanging.add(response);
        return;
      }
      const reply =
        fake.behaviour === 'server_error' ? Promise.resolve({ status: 500, body: serverErrorBody }) : Promise.resolve(handle(request));
      reply.then(
        ({ status, body }) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(body === undefined ? '' : JSON.stringify(body));
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
