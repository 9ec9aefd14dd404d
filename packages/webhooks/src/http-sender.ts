import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
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
 * connection, so no pooled socket bypasses the connect-time check.
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
      const stopTimer = startTimer(timeoutMs, () =>
        request.destroy(new Error(`No response within ${timeoutMs / 1000} s`)),
      );
      request.once('response', (response) => {
        stopTimer();
        // Only the status matters; the connection is not reused, so the body is not read.
        response.destroy();
        resolve({ status: response.statusCode ?? 0 });
      });
      request.once('error', (error) => {
        stopTimer();
        reject(error);
      });
      request.end(body);
    });
}
