import { type Database, type Transaction, type UnitOfWork, unitOfWork } from '@platform/db';
import { idempotencyKeyInUse } from '@platform/errors';
import { addRequestLogFacts } from '@platform/http';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { claimIdempotencyKey } from './claim.js';
import { requestFingerprint } from './fingerprint.js';
import { KEY_HEADERS, keyHeaderSchema, readIdempotencyKey } from './key-header.js';
import { type PurgeSchedule, startIdempotencyPurge } from './purge.js';
import {
  addStoredAnswer,
  completeRecord,
  type KeyClaim,
  releaseClaim,
  type SerializedResponse,
  type StoredResponse,
  serializedResponse,
} from './repository.js';

/**
 * How a state-changing route takes part:
 * - `transaction`: the handler writes through `request.idempotency.unitOfWork(db, work)` or
 *   `request.idempotency.transaction(db, work)`, which store the answer with the business rows (use it for
 *   everything that only writes locally);
 * - `response`: the answer is stored once it is sent (for operations that also call out, e.g. a provider);
 * - `none`: the route ignores idempotency keys (say why in the route).
 */
export type IdempotencyMode = 'transaction' | 'response' | 'none';

/** What a transactional handler returns: the status, the body, and any headers to send (and replay). */
export interface IdempotentResponse<T> {
  statusCode: number;
  body: T;
  headers?: Record<string, string>;
}

export interface IdempotencyContext {
  /** The key the client sent, or undefined: then the request simply runs. */
  readonly key: string | undefined;
  /** Who the key belongs to (the plugin's `scopeOf`), when a key was sent. */
  readonly scope: string | undefined;
  /** What makes this request "the same request" (method, route and data), when a key was sent. */
  readonly fingerprint: string | undefined;
  /**
   * Keeps this answer out of the store although it is a 2xx, because it describes a state that is still
   * changing (a 202 "being confirmed", say): the key is released once the answer is sent, so a retry runs the
   * route again and answers from the state then. The route must make that retry safe itself.
   */
  skipStoring(): void;
  /**
   * Runs `work` in one transaction. When the request holds an idempotency key and the result is 2xx, the
   * result is stored inside that same transaction, so the business rows and the stored answer commit
   * together or not at all. Sets the reply's status and headers and returns the body to send.
   */
  transaction<T>(db: Database, work: (tx: Transaction) => Promise<IdempotentResponse<T>>): Promise<T>;
  /**
   * Runs `work` as a unit of work (`unitOfWork` of `@platform/db`: docs/decisions.md#a-unit-of-work). When the
   * request holds an idempotency key and the result is 2xx, the stored answer is added to the unit, a write of its
   * commit statement, so the business rows and the answer commit together or not at all, at no cost of a statement.
   * A key taken over meanwhile (its claim abandoned) is a 409 and writes nothing. `work` may run twice: when its one
   * statement could not commit by itself, it runs again in a transaction. Sets the reply's status and headers and
   * returns the body to send.
   */
  unitOfWork<T>(db: Database, work: (work: UnitOfWork) => Promise<IdempotentResponse<T>>): Promise<T>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every POST, PUT, PATCH and DELETE route registered after the idempotency plugin. */
    idempotency?: IdempotencyMode;
  }
  interface FastifyRequest {
    idempotency: IdempotencyContext;
  }
}

export interface IdempotencyOptions {
  db: Database;
  /** Who the key belongs to, from the request's credential (e.g. `api_key:<id>`). Runs after authentication. */
  scopeOf: (request: FastifyRequest) => string;
  /** The service's clock. */
  now?: () => Date;
  /** How long answers are replayed. Default 24 h. */
  ttlMs?: number;
  /** After how long an unanswered claim counts as abandoned and may be taken over. Default 60 s. */
  lockTimeoutMs?: number;
  /** Retry-After of the 409 while the first request runs. Default 1 s. */
  retryAfterSeconds?: number;
  /** Called for every replayed answer (e.g. to count them). */
  onReplay?: (request: FastifyRequest) => void;
  /** Purge expired records every `intervalMs` while the app runs; false (the default) to leave it to others. */
  purge?: { intervalMs: number; batchSize?: number } | false;
}

export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_LOCK_TIMEOUT_MS = 60 * 1000;

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Headers worth replaying with a stored answer; the rest (dates, rate-limit counters) belong to the replay.
const REPLAYED_RESPONSE_HEADERS = ['content-type', 'location'];

type RequestState =
  | { phase: 'claimed'; claim: KeyClaim; mode: IdempotencyMode; skipStoring: boolean }
  | { phase: 'stored' }
  | { phase: 'replayed' }
  | { phase: 'finished' };

const isSuccess = (statusCode: number) => statusCode >= 200 && statusCode < 300;

/**
 * Idempotent retries for state-changing routes (docs/decisions.md#idempotency). Register it after authentication;
 * every POST/PUT/PATCH/DELETE route registered after it must declare `config.idempotency`, or the app fails to
 * start. A request with a key either runs (owning the key), replays the stored 2xx answer with
 * `Idempotent-Replayed: true` without running, or gets 422 (the key was used for another request) or 409
 * (the first request is still running). Only 2xx answers are stored (unless the route calls
 * `skipStoring()`); anything else releases the key.
 */
export const idempotency = fp<IdempotencyOptions>(
  async (app: FastifyInstance, options) => {
    const { db, scopeOf, onReplay } = options;
    const now = options.now ?? (() => new Date());
    const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    const retryAfterSeconds = options.retryAfterSeconds ?? 1;
    const states = new WeakMap<FastifyRequest, RequestState>();

    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat().map((method) => method.toUpperCase());
      if (!methods.some((method) => MUTATING_METHODS.has(method))) return;
      const mode = route.config?.idempotency;
      if (mode === undefined) {
        throw new Error(
          `Route ${methods.join(',')} ${route.url} changes state, so it must declare config.idempotency ` +
            "('transaction', 'response' or 'none')",
        );
      }
      if (mode !== 'none') route.schema = withKeyHeaders(route.schema);
    });

    app.decorateRequest('idempotency', null as unknown as IdempotencyContext);

    app.addHook('preHandler', async (request, reply) => {
      const mode = request.routeOptions.config?.idempotency;
      const guarded = mode === 'transaction' || mode === 'response';
      const key = guarded ? readIdempotencyKey(request.headers) : undefined;
      if (key === undefined || !guarded) {
        request.idempotency = contextFor(request, reply, undefined);
        return;
      }

      const scope = scopeOf(request);
      const fingerprint = requestFingerprint({
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        params: request.params,
        query: request.query,
        body: request.body,
      });
      request.idempotency = contextFor(request, reply, { key, scope, fingerprint });
      const outcome = await claimIdempotencyKey(
        db,
        { scope, key, fingerprint },
        { now: now(), ttlMs, lockTimeoutMs, retryAfterSeconds },
      );
      if (outcome.kind === 'replay') {
        states.set(request, { phase: 'replayed' });
        // Said on the request's own line, not one of its own (docs/decisions.md#one-log-line-per-request).
        addRequestLogFacts(request, { idempotencyKey: key, idempotentReplay: true });
        onReplay?.(request);
        replay(reply, outcome.response);
        return reply;
      }
      if (outcome.tookOver === 'abandoned') {
        request.log.warn({ idempotencyKey: key }, 'Took over an idempotency key whose request stopped answering');
      }
      states.set(request, { phase: 'claimed', claim: outcome.claim, mode, skipStoring: false });
      return undefined;
    });

    // Stores a 2xx answer that no transaction stored, and releases the key after any other answer.
    app.addHook('onSend', async (request, reply, payload) => {
      const state = states.get(request);
      if (state?.phase !== 'claimed') return payload;
      states.set(request, { phase: 'finished' });
      const { claim } = state;
      try {
        const storable = isSuccess(reply.statusCode) && !state.skipStoring;
        const response = storable ? storableResponse(reply, payload) : undefined;
        if (response === undefined) {
          if (storable) request.log.warn('An idempotent answer that is not text cannot be stored');
          await releaseClaim(db, claim);
          return payload;
        }
        if (state.mode === 'transaction') {
          request.log.error(
            { route: request.routeOptions.url },
            'A transactional idempotent route answered without request.idempotency.transaction; stored afterwards',
          );
        }
        if (!(await completeRecord(db, claim, serializedResponse(response)))) {
          request.log.warn(
            { idempotencyKey: claim.key },
            'The idempotency key was taken over before the answer was stored',
          );
        }
      } catch (error) {
        // The operation's outcome stands; an unstored answer only means a retry after 60 s runs it again.
        request.log.error({ err: error, idempotencyKey: claim.key }, 'Could not store or release an idempotency key');
      }
      return payload;
    });

    if (options.purge) {
      const { intervalMs, batchSize } = options.purge;
      let schedule: PurgeSchedule | undefined;
      app.addHook('onReady', async () => {
        schedule = startIdempotencyPurge({ db, now, intervalMs, logger: app.log, ...(batchSize ? { batchSize } : {}) });
      });
      app.addHook('onClose', async () => {
        await schedule?.stop();
      });
    }

    function contextFor(
      request: FastifyRequest,
      reply: FastifyReply,
      keyed: { key: string; scope: string; fingerprint: string } | undefined,
    ): IdempotencyContext {
      /** The request's claim, and what to do with a result of its work. */
      function answerRun() {
        const state = states.get(request);
        const claim = state?.phase === 'claimed' ? state.claim : undefined;
        // Asked after the work, which may itself call skipStoring().
        const storing = (statusCode: number) =>
          claim !== undefined && isSuccess(statusCode) && !(state?.phase === 'claimed' && state.skipStoring);
        return {
          claim,
          storing,
          finish: <T>(result: IdempotentResponse<T>): T => {
            if (storing(result.statusCode)) states.set(request, { phase: 'stored' });
            reply.code(result.statusCode);
            if (result.headers !== undefined) reply.headers(result.headers);
            return result.body;
          },
        };
      }

      return {
        key: keyed?.key,
        scope: keyed?.scope,
        fingerprint: keyed?.fingerprint,
        skipStoring: () => {
          const state = states.get(request);
          if (state?.phase === 'claimed') state.skipStoring = true;
        },
        transaction: async (database, work) => {
          const run = answerRun();
          const result = await database.transaction(async (tx) => {
            const outcome = await work(tx);
            const { claim } = run;
            // Another request took the key over while this one ran: undo this one's writes.
            if (claim !== undefined && run.storing(outcome.statusCode)) {
              if (!(await completeRecord(tx, claim, storedFromResult(outcome)))) {
                throw idempotencyKeyInUse(retryAfterSeconds);
              }
            }
            return outcome;
          });
          return run.finish(result);
        },
        unitOfWork: async (database, work) => {
          const run = answerRun();
          const result = await unitOfWork(database, async (unit) => {
            const outcome = await work(unit);
            const { claim } = run;
            if (claim !== undefined && run.storing(outcome.statusCode)) {
              // Another request took the key over while this one ran: a 409, and nothing of this one is written.
              addStoredAnswer(unit, claim, storedFromResult(outcome), () => idempotencyKeyInUse(retryAfterSeconds));
            }
            return outcome;
          });
          return run.finish(result);
        },
      };
    }
  },
  { name: '@platform/idempotency', fastify: '5.x' },
);

/** Documents (and validates) the key headers on a guarded route, unless its headers schema is a shared one. */
function withKeyHeaders(schema: FastifySchema | undefined): FastifySchema {
  const keyHeaders = Object.fromEntries(KEY_HEADERS.map((name) => [name, { ...keyHeaderSchema }]));
  const headers = schema?.headers as Record<string, unknown> | undefined;
  if (headers === undefined) return { ...schema, headers: { type: 'object', properties: keyHeaders } };
  const properties = headers['properties'];
  if (headers['type'] !== 'object' || headers['$id'] !== undefined || typeof properties !== 'object') {
    return schema ?? {};
  }
  return { ...schema, headers: { ...headers, properties: { ...keyHeaders, ...properties } } };
}

// What JSON serialisation sends (Dates become strings), so the replay sends the same.
function storedFromResult(result: IdempotentResponse<unknown>): SerializedResponse {
  return serializedResponse({ statusCode: result.statusCode, body: result.body, headers: result.headers ?? {} });
}

/** The sent answer as it can be stored, or undefined for one that is not text (a stream, binary data). */
function storableResponse(reply: FastifyReply, payload: unknown): StoredResponse | undefined {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_RESPONSE_HEADERS) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') headers[name] = value;
  }
  const contentType = headers['content-type'] ?? '';
  const text = payloadText(payload, contentType);
  if (text === undefined) return undefined;
  let body: unknown = text === '' ? null : text;
  if (text !== '' && /\bjson\b/i.test(contentType)) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = text;
      headers['content-type'] = 'text/plain; charset=utf-8';
    }
  }
  return { statusCode: reply.statusCode, body, headers };
}

function payloadText(payload: unknown, contentType: string): string | undefined {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload) && (/^text\//i.test(contentType) || /\bjson\b/i.test(contentType))) {
    return payload.toString('utf8');
  }
  return undefined;
}

/** Sends a stored answer as the route would: JSON bodies go through the route's serializer again. */
function replay(reply: FastifyReply, response: StoredResponse): void {
  reply.code(response.statusCode);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  reply.header(REPLAYED_HEADER, 'true');
  const contentType = response.headers['content-type'];
  const isJson = contentType === undefined || /\bjson\b/i.test(contentType);
  if (response.body === null) reply.send();
  else if (!isJson) reply.send(String(response.body));
  else if (typeof response.body === 'string')
    reply.type('application/json; charset=utf-8').send(JSON.stringify(response.body));
  else reply.send(response.body);
}
