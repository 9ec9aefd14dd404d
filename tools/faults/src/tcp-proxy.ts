import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL or Redis that a test controls, to make a server vanish for one service
 * instance without touching the server itself (other suites share it).
 */
export interface TcpProxy {
  readonly port: number;
  /** `url` (the real server's) pointed at the proxy instead. */
  urlThrough(url: string): string;
  /**
   * The server is gone: every open connection is dropped, and new ones are refused (the port stops
   * listening, so connecting fails with ECONNREFUSED, as with a stopped server) until `restore`.
   */
  cut(): Promise<void>;
  /** The server is back: the port listens and connections go through again. */
  restore(): Promise<void>;
  /**
   * Stops all traffic, in both directions, as soon as a client sends bytes containing `marker` (those
   * bytes never arrive). Resolves once that happened. Use it to stop an instance at an exact step.
   */
  freezeWhen(marker: string): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let listening = true;
  let frozen = false;
  let freeze: { marker: Buffer; done: () => void } | undefined;

  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      // Either side failing ends the pair, as a dead server or a dead client would.
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      if (frozen) return;
      if (freeze !== undefined && chunk.includes(freeze.marker)) {
        frozen = true;
        freeze.done();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!frozen) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
    });

  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };

  return {
    port,
    urlThrough(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    async cut() {
      frozen = false;
      freeze = undefined;
      const stopped = stopListening();
      dropAll();
      await stopped;
    },
    async restore() {
      if (listening) return;
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      listening = true;
    },
    freezeWhen(marker) {
      return new Promise<void>((resolve) => {
        freeze = { marker: Buffer.from(marker), done: resolve };
      });
    },
    async close() {
      const stopped = stopListening();
      dropAll();
      await stopped;
    },
  };
}
