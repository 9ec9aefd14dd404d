import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** How much of a request body answered before it was read (a 413, a 401, a 404...) is still read and discarded. */
export type UnreadBodyDrain = {
  /** Bytes read and discarded after the answer before the connection is destroyed (default 64 MiB). */
  maxBytes: number;
  /** Longest the rest of the body may take to arrive before the connection is destroyed (default 30 s). */
  timeoutMs: number;
};

export const defaultUnreadBodyDrain: Readonly<UnreadBodyDrain> = Object.freeze({
  maxBytes: 64 * 1024 * 1024,
  timeoutMs: 30_000,
});

const draining = new WeakSet<Socket>();

/** Whether this connection is discarding the rest of a body whose request was already answered. */
export function isDrainingUnreadBody(socket: Socket): boolean {
  return draining.has(socket);
}

type DestroySoonOverride = Socket & { destroySoon: () => void };

/**
 * Reads and discards the rest of `request`'s body, up to the bounds, then lets the connection go on: kept
 * alive, or closed if the answer said `Connection: close`. A connection closed while the client is still
 * sending is reset, and a client that reads its answer only once it has sent everything (or reads it a little
 * late) gets ECONNRESET or EPIPE instead of the answer. Past either bound the connection is destroyed.
 */
export function drainUnreadBody(request: IncomingMessage, limits: UnreadBodyDrain, log: FastifyBaseLogger): void {
  const socket = request.socket as DestroySoonOverride;
  if (draining.has(socket) || socket.destroyed) return;
  draining.add(socket);

  let discarded = 0;
  let closeWhenDrained = false;
  // Node closes a connection after a `Connection: close` answer (Fastify marks refused bodies so) with
  // destroySoon(); until the body is drained, only our side is ended.
  socket.destroySoon = () => {
    closeWhenDrained = true;
    socket.end();
  };

  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.maxBytes) giveUp('size');
  };
  const onEnd = () => {
    stop();
    if (closeWhenDrained) socket.destroySoon();
  };
  const timer = setTimeout(() => giveUp('time'), limits.timeoutMs);
  timer.unref();

  function stop(): void {
    clearTimeout(timer);
    request.off('data', onData);
    request.off('end', onEnd);
    request.off('close', stop);
    Reflect.deleteProperty(socket, 'destroySoon');
    draining.delete(socket);
  }
  function giveUp(bound: 'size' | 'time'): void {
    stop();
    log.info({ discardedBytes: discarded, bound }, 'closed a connection still sending an answered request body');
    socket.destroy();
  }

  // A body parser still piped to (multipart) would hold the body back once it stops reading.
  request.unpipe();
  request.on('data', onData);
  request.once('end', onEnd);
  // The client went away: nothing left to drain.
  request.once('close', stop);
  request.resume();
}

/** Drains the body of every request answered before its body was fully read (see drainUnreadBody). */
export function drainUnreadBodies(app: FastifyInstance, limits: UnreadBodyDrain): void {
  app.addHook('onSend', (request, _reply, payload, done) => {
    // `complete` is false only on a real connection with body bytes still to come (not under inject).
    if (request.raw.complete === false) drainUnreadBody(request.raw, limits, request.log);
    done(null, payload);
  });
}
