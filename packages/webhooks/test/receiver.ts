import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** The answer's body; none by default. */
  body?: string;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: ReceivedRequest[];
  /** Decides the answer to each request; 204 by default. */
  respond: (request: ReceivedRequest) => Answer | Promise<Answer>;
  close(): Promise<void>;
}

/** A customer's callback endpoint on 127.0.0.1, recording every request it gets. */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    origin: '',
    requests: [],
    respond: () => ({ status: 204 }),
    close: async () => {},
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      receiver.requests.push(received);
      void Promise.resolve(receiver.respond(received)).then((answer) => {
        response.writeHead(answer.status, answer.headers).end(answer.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return receiver;
}
