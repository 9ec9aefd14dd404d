import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { EXCERPT_READ_BYTES } from './response-excerpt.js';
import {
  createGuardedLookup,
  type HostResolver,
  hostOf,
  validateCallbackUrl,
  WebhookTargetRefusedError,
} from './target-guard.js';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The receiver's answer. Any status counts as an answer here; the caller decides what is a success. */
export interface WebhookResponse {
  status: number;
  /**
   * The first EXCERPT_READ_BYTES bytes of the body as UTF-8, unscrubbed (the worker scrubs it before storing it:
   * response-excerpt.ts); absent when the body was empty.
   */
  body?: string;
}

/**
 * Sends one callback. Rejects with WebhookTargetRefusedError when policy refuses the target, and with another
 * error when the request fails (connection, TLS, timeout).
 */
export type WebhookSender = (request: WebhookRequest) => Promise<WebhookResponse>;

export const DEFAULT_TIMEOUT_MS = 15_000;
const USER_AGENT = 'platform-webhooks/1';

/**
 * Starts a request's time limit: calls `expire` once `ms` have passed, unless the returned function (called
 * when the answer comes or the request fails) stops it first.
 */
export type RequestTimer = (ms: number, expire: () => void) => () => void;

/** The real time limit: an unref'd timer, so a pending limit never keeps the process alive. */
export const startRequestTimer: RequestTimer = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export interface WebhookSenderOptions {
  allowPrivateTargets: boolean;
  /** Replaces DNS (tests). */
  resolve?: HostResolver;
  /** Whole request, from connecting to the response status; default 15 s. */
  timeoutMs?: number;
  /** Starts each request's time limit (startRequestTimer by default); tests run it out by hand. */
  startTimer?: RequestTimer;
}

/**
 * POSTs with node:http/https: the target is checked before sending and its addresses when the socket connects,
 * redirects are never followed (a 3xx is returned like any other status), and each request has its own
 * connection, so no pooled socket bypasses the connect-time check. Of the answer, the status and the body's first
 * EXCERPT_READ_BYTES bytes are read (docs/decisions.md#response-excerpts), within the same time limit.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const lookup = createGuardedLookup({
    allowPrivateTargets: options.allowPrivateTargets,
    ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const startTimer = options.startTimer ?? startRequestTimer;

  return (webhook) =>
    new Promise<WebhookResponse>((resolve, reject) => {
      const checked = validateCallbackUrl(webhook.url, { allowPrivateTargets: options.allowPrivateTargets });
      if (!checked.ok) {
        reject(new WebhookTargetRefusedError(`The callback URL ${checked.reason}`));
        return;
      }
      const { url } = checked;
      const body = Buffer.from(webhook.body, 'utf8');
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send({
        method: 'POST',
        hostname: hostOf(url),
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        headers: {
          ...webhook.headers,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': USER_AGENT,
        },
        lookup,
        agent: false,
      });
      // Until the status arrives, running out of time fails the request; afterwards it ends the body's excerpt.
      let expire = (): void => {
        request.destroy(new Error(`No response within ${timeoutMs / 1000} s`));
      };
      const stopTimer = startTimer(timeoutMs, () => expire());
      request.once('response', (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let received = 0;
        let answered = false;
        const answer = () => {
          if (answered) return;
          answered = true;
          stopTimer();
          // The connection is not reused, so the rest of the body is not read.
          response.destroy();
          const body = Buffer.concat(chunks).subarray(0, EXCERPT_READ_BYTES).toString('utf8');
          resolve(body === '' ? { status } : { status, body });
        };
        expire = answer;
        // Once the status has come, a failure only ends the excerpt.
        request.prependOnceListener('error', answer);
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          if (received >= EXCERPT_READ_BYTES) answer();
        });
        response.once('end', answer);
        response.once('error', answer);
        response.once('close', answer);
      });
      request.once('error', (error) => {
        stopTimer();
        reject(error);
      });
      request.end(body);
    });
}
