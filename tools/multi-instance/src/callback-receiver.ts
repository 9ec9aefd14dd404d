import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP server that counts the callbacks it receives, by `webhook-id`. */
export interface CallbackReceiver {
  url: string;
  /** Deliveries received per `webhook-id`. */
  deliveries: Map<string, number>;
  close(): Promise<void>;
}

export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const deliveries = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const id = String(request.headers['webhook-id']);
    deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    request.resume();
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
