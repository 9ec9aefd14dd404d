import { performance } from 'node:perf_hooks';
import type { ApiKeyEnvironment, Database, WebhookEndpoint } from '@platform/db';
import { type PeriodicJob, startPeriodicJob } from '@platform/http/periodic-job';
import { ensureWebhookEndpoint, signingSecretsOf } from './endpoints.js';
import { createWebhookSender, type WebhookSender } from './http-sender.js';
import type { WebhookEventBody } from './outbox.js';
import {
  type ClaimedEvent,
  findDisabledTarget,
  insertDeliveryAttempt,
  insertDisabledTarget,
  leaseDueEvents,
  updateLeasedEvent,
} from './repository.js';
import { scrubResponseExcerpt } from './response-excerpt.js';
import { MAX_ATTEMPTS, retryDelayMs } from './retry-schedule.js';
import { signWebhook } from './signature.js';
import { type HostResolver, WebhookTargetRefusedError } from './target-guard.js';

/** The logging the worker needs; a pino or Fastify logger fits. */
export interface WebhookLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

export interface WebhookDeliveryOptions {
  db: Database;
  /** Allow http and private or loopback targets (local runs and tests only). */
  allowPrivateTargets: boolean;
  now?: () => Date;
  logger?: WebhookLogger;
  /** How often to poll; a poll whose batch comes back full claims the next one at once. Default 1 s. */
  intervalMs?: number;
  /** Events claimed (and sent in parallel) per poll; default 20. */
  batchSize?: number;
  /** How long a claim keeps other instances off an event; default 60 s, well above the send timeout. */
  leaseMs?: number;
  /** Replaces the HTTP client (the SSRF guard lives in the default one). */
  send?: WebhookSender;
  /** Replaces DNS for the default HTTP client (tests). */
  resolve?: HostResolver;
  /** Source of the retry jitter, in [0, 1); default Math.random. */
  random?: () => number;
}

export interface DeliveryRunSummary {
  /** Events this run claimed. */
  claimed: number;
  delivered: number;
  /** Failed tries with another try scheduled. */
  retrying: number;
  /** Events given up on (last try failed, 410 Gone, disabled or refused target, no URL). */
  failed: number;
}

export interface WebhookDelivery {
  /** Claims the due events (one batch) and sends them. Safe to run on several instances at once. */
  runOnce(): Promise<DeliveryRunSummary>;
  /** Polls every `intervalMs` until stopped (timers do not keep the process alive). */
  start(): void;
  /** Stops polling and waits for sends in flight. */
  stop(): Promise<void>;
}

const DEFAULT_INTERVAL_MS = 1000;
const DEFAULT_BATCH_SIZE = 20;
const DEFAULT_LEASE_MS = 60_000;

export const NO_TARGET_ERROR =
  'No callback URL: the session has no callbackUrl and the organization has no default endpoint for this environment';

type Outcome = 'delivered' | 'retrying' | 'failed' | 'lost';

/**
 * The outbox's delivery worker. Each poll claims due events with `FOR UPDATE SKIP LOCKED` and sets a lease in
 * the same statement, which commits before anything is sent; the result of each try is written afterwards,
 * only if the lease is still this worker's. Instances that poll together therefore never send one try twice.
 * A worker that dies mid-send leaves its lease to expire, and the event is tried again: delivery is at least
 * once, and receivers dedupe by `webhook-id`.
 */
export function createWebhookDelivery(options: WebhookDeliveryOptions): WebhookDelivery {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const random = options.random ?? Math.random;
  const send =
    options.send ??
    createWebhookSender({
      allowPrivateTargets: options.allowPrivateTargets,
      ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
    });
  const running = new Set<Promise<unknown>>();
  let poller: PeriodicJob<void> | undefined;
  let polling = false;

  async function claimDueEvents(): Promise<{ events: ClaimedEvent[]; leaseUntil: Date }> {
    const claimedAt = now();
    const leaseUntil = new Date(claimedAt.getTime() + leaseMs);
    // One statement, so the claim is committed before any network call.
    const events = await leaseDueEvents(db, { claimedAt, leaseUntil, batchSize });
    return { events, leaseUntil };
  }

  async function deliver(
    event: ClaimedEvent,
    leaseUntil: Date,
    endpointOf: (organizationId: string, environment: ApiKeyEnvironment) => Promise<WebhookEndpoint>,
  ): Promise<Outcome> {
    // Each write of the outcome applies only while the lease is still this worker's.
    const lease = { id: event.id, leaseUntil };
    const giveUp = async (lastError: string): Promise<Outcome> =>
      (await updateLeasedEvent(db, lease, { status: 'failed', lastError, lockedUntil: null })) ? 'failed' : 'lost';

    const endpoint = await endpointOf(event.organizationId, event.environment);
    const url = event.targetUrl ?? endpoint.defaultUrl;
    if (url === null) return giveUp(NO_TARGET_ERROR);

    const disabled = await findDisabledTarget(db, {
      organizationId: event.organizationId,
      environment: event.environment,
      url,
    });
    if (disabled !== undefined) {
      return giveUp(`Not sent: ${url} is disabled since ${disabled.createdAt.toISOString()} (${disabled.reason})`);
    }

    const body = bodyOf(event.payload as WebhookEventBody);
    const sentAt = now();
    const headers = signWebhook({ id: event.id, body, secrets: signingSecretsOf(endpoint, sentAt), sentAt });
    const started = performance.now();
    let status: number | null = null;
    let excerpt: string | null = null;
    let error: string | null = null;
    let refused = false;
    try {
      const response = await send({ url, headers, body });
      status = response.status;
      // Scrubbed before it is stored (docs/decisions.md#response-excerpts).
      excerpt = scrubResponseExcerpt(response.body);
    } catch (caught) {
      refused = caught instanceof WebhookTargetRefusedError;
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const durationMs = Math.round(performance.now() - started);
    const finishedAt = now();
    const attempt = event.attempts + 1;
    const result = classify(status, error, refused, attempt);
    const nextDelay = result.kind === 'retry' ? retryDelayMs(attempt, random) : null;
    const outcome = result.kind === 'delivered' ? 'delivered' : nextDelay === null ? 'failed' : 'retrying';

    return db.transaction(async (tx) => {
      await insertDeliveryAttempt(tx, {
        eventId: event.id,
        delivery: event.deliveries,
        attempt,
        url,
        responseStatus: status,
        error,
        durationMs,
        outcome,
        responseExcerpt: excerpt,
        createdAt: finishedAt,
      });
      if (result.kind === 'gone') {
        await insertDisabledTarget(tx, {
          organizationId: event.organizationId,
          environment: event.environment,
          url,
          reason: `answered 410 Gone to ${event.id}`,
          createdAt: finishedAt,
        });
      }
      const common = { attempts: attempt, lastResponseStatus: status, lockedUntil: null };
      const finalError = result.kind === 'retry' ? `${result.error}; gave up after ${MAX_ATTEMPTS} tries` : null;
      const changes =
        result.kind === 'delivered'
          ? { ...common, status: 'delivered' as const, deliveredAt: finishedAt, lastError: null }
          : nextDelay === null
            ? { ...common, status: 'failed' as const, lastError: finalError ?? result.error }
            : { ...common, lastError: result.error, nextAttemptAt: new Date(finishedAt.getTime() + nextDelay) };
      if (!(await updateLeasedEvent(tx, lease, changes))) return 'lost';
      return outcome;
    });
  }

  async function runOnce(): Promise<DeliveryRunSummary> {
    const work = (async () => {
      const { events, leaseUntil } = await claimDueEvents();
      // One endpoint lookup per organization and environment per run.
      const endpoints = new Map<string, Promise<WebhookEndpoint>>();
      const endpointOf = (organizationId: string, environment: ApiKeyEnvironment) => {
        const key = `${organizationId}:${environment}`;
        let endpoint = endpoints.get(key);
        if (endpoint === undefined) {
          endpoint = ensureWebhookEndpoint(db, { organizationId, environment });
          endpoints.set(key, endpoint);
        }
        return endpoint;
      };
      const outcomes = await Promise.all(
        events.map((event) =>
          deliver(event, leaseUntil, endpointOf).catch((error: unknown) => {
            // The lease runs out and a later poll tries again.
            options.logger?.error({ err: error, eventId: event.id }, 'Webhook delivery failed unexpectedly');
            return 'lost' as const;
          }),
        ),
      );
      for (const [index, event] of events.entries()) {
        const outcome = outcomes[index];
        if (outcome === 'lost') options.logger?.warn({ eventId: event.id }, 'Webhook event left for a later poll');
        else if (outcome === 'failed') options.logger?.warn({ eventId: event.id }, 'Webhook event failed for good');
      }
      return {
        claimed: events.length,
        delivered: outcomes.filter((outcome) => outcome === 'delivered').length,
        retrying: outcomes.filter((outcome) => outcome === 'retrying').length,
        failed: outcomes.filter((outcome) => outcome === 'failed').length,
      };
    })();
    running.add(work);
    try {
      return await work;
    } finally {
      running.delete(work);
    }
  }

  /** Claims batch after batch while each comes back full, so a backlog drains without waiting for ticks. */
  async function drainDueEvents(): Promise<void> {
    let fullBatch = true;
    while (polling && fullBatch) fullBatch = (await runOnce()).claimed === batchSize;
  }

  return {
    runOnce,
    start() {
      if (polling) return;
      polling = true;
      poller = startPeriodicJob({
        name: 'Webhook delivery poll',
        intervalMs,
        run: drainDueEvents,
        logger: options.logger,
      });
      void poller.runNow();
    },
    async stop() {
      polling = false;
      const stopping = poller;
      poller = undefined;
      await stopping?.stop();
      await Promise.allSettled([...running]);
    },
  };
}

/** Creates the worker and starts polling. */
export function startWebhookDelivery(options: WebhookDeliveryOptions): WebhookDelivery {
  const delivery = createWebhookDelivery(options);
  delivery.start();
  return delivery;
}

/** The exact text sent and signed: the stored body with its fields in their documented order. */
export function bodyOf(payload: WebhookEventBody): string {
  return JSON.stringify({ id: payload.id, type: payload.type, timestamp: payload.timestamp, data: payload.data });
}

type Classified =
  | { kind: 'delivered' }
  | { kind: 'gone'; error: string }
  | { kind: 'refused'; error: string }
  | { kind: 'retry'; error: string };

function classify(status: number | null, error: string | null, refused: boolean, attempt: number): Classified {
  if (status !== null && status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 410) {
    return { kind: 'gone', error: 'The target answered 410 Gone: it is disabled and gets no more events' };
  }
  if (refused) return { kind: 'refused', error: `Refused: ${error ?? 'target not allowed'}` };
  const what =
    status === null
      ? (error ?? 'Request failed')
      : status >= 300 && status < 400
        ? `HTTP ${status} (redirects are not followed)`
        : `HTTP ${status}`;
  return { kind: 'retry', error: `Try ${attempt}: ${what}` };
}
