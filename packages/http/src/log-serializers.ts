import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { pino } from 'pino';
import type { SecretUrls } from './secret-urls.js';

// The platform's secrets that can be recognised by their shape alone: API keys (and Paystack's secret keys),
// Standard Webhooks signing secrets, credentials of an Authorization header, and JWTs.
const secretShapes: ReadonlyArray<[RegExp, string]> = [
  [/\b(sk_(?:live|test)_)[A-Za-z0-9_-]+/g, '$1[redacted]'],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, 'whsec_[redacted]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi, '$1 [redacted]'],
  [/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[redacted JWT]'],
];

// Cheap first look, so the URL of an ordinary request costs one test.
const secretHint = /sk_|whsec_|eyJ|bearer|basic/i;

/** `text` with every recognisable secret masked (`sk_live_[redacted]`, `Bearer [redacted]`...). */
export function maskSecrets(text: string): string {
  if (!secretHint.test(text)) return text;
  let masked = text;
  for (const [shape, replacement] of secretShapes) masked = masked.replace(shape, replacement);
  return masked;
}

// Request headers that hold credentials as such, and fields of the same name an error may carry.
const credentialHeaders = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-service-api-key',
  'x-api-key',
];
const credentialKeys = new Set(credentialHeaders);

/**
 * pino redaction of credential headers in a `headers` object at the top of a log line. The same headers one level
 * down are censored by censorNestedCredentialHeaders, not by `*.headers[...]` paths: pino runs a wildcard path's
 * redactor on every field of every line, the request line's method and url included, which cost about as much as
 * the rest of the line (docs/benchmarks.md#log-redaction-every-endpoint-26-nov).
 */
export const credentialHeaderRedaction = {
  paths: credentialHeaders.map((header) => `headers["${header}"]`),
  censor: '[redacted]',
};

const CENSOR = credentialHeaderRedaction.censor;

/** A copy of `source` with the same prototype and own enumerable fields, as pino's redaction copies a value. */
function copyOf(source: object): Record<string, unknown> {
  const copy = Object.create(Object.getPrototypeOf(source)) as Record<string, unknown>;
  for (const key in source) if (Object.hasOwn(source, key)) copy[key] = (source as Record<string, unknown>)[key];
  return copy;
}

/** `field.headers` when it is an object holding a credential header of its own. */
function credentialHeadersOf(field: unknown): Record<string, unknown> | undefined {
  if (typeof field !== 'object' || field === null || Array.isArray(field) || !Object.hasOwn(field, 'headers')) {
    return undefined;
  }
  const { headers } = field as { headers: unknown };
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return undefined;
  return credentialHeaders.some((name) => Object.hasOwn(headers, name))
    ? (headers as Record<string, unknown>)
    : undefined;
}

/**
 * A pino `formatters.log` that censors credential headers one level down (`{ parserOptions: { headers } }`: a
 * plugin may log its options with the request's headers in them, as @fastify/multipart does at trace level),
 * exactly as pino's `*.headers["authorization"]` paths did: the field and its headers are copied, never changed
 * in place, and only the credential headers they hold are replaced. Fields a serializer writes (`serialized`: req,
 * res, err...) are left to it; none of those writes a credential header. A line without such a field is returned
 * as it is, so an ordinary line costs one look at each field.
 */
export function censorNestedCredentialHeaders(
  serialized: ReadonlySet<string>,
): (line: Record<string, unknown>) => Record<string, unknown> {
  return (line) => {
    let censored: Record<string, unknown> | undefined;
    for (const key in line) {
      if (!Object.hasOwn(line, key) || serialized.has(key)) continue;
      const field = line[key];
      const headers = credentialHeadersOf(field);
      if (headers === undefined) continue;
      const headersCopy = copyOf(headers);
      for (const name of credentialHeaders) if (Object.hasOwn(headersCopy, name)) headersCopy[name] = CENSOR;
      const fieldCopy = copyOf(field as object);
      fieldCopy.headers = headersCopy;
      censored ??= { ...line };
      censored[key] = fieldCopy;
    }
    return censored ?? line;
  };
}

const MAX_DEPTH = 6;

type ErrorFields = { query?: unknown; params?: unknown; cause?: unknown };

/**
 * The parameter lists a failed database query put in its message (`Failed query: ...\nparams: a,b`): the values
 * of the statement, a webhook secret or a session id among them. Found on the error and its causes.
 */
function queryParameterTexts(error: unknown): string[] {
  const texts: string[] = [];
  let current = error;
  for (let depth = 0; depth < MAX_DEPTH && typeof current === 'object' && current !== null; depth += 1) {
    const { query, params, cause } = current as ErrorFields;
    if (typeof query === 'string' && Array.isArray(params) && params.length > 0)
      texts.push(`params: ${String(params)}`);
    current = cause;
  }
  return texts;
}

/** A copy of a serialised value with `redactText` applied to every string in it. */
function redactValue(value: unknown, redactText: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  const json = (value as { toJSON?: unknown }).toJSON;
  // A URL, a Date...: what JSON would write, redacted.
  if (typeof json === 'function') return redactValue(json.call(value), redactText, depth + 1);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redactText, depth + 1));
  const copy: Record<string, unknown> = {};
  const isQueryError = typeof (value as ErrorFields).query === 'string';
  for (const [key, field] of Object.entries(value)) {
    if (credentialKeys.has(key.toLowerCase()) || (isQueryError && (key === 'params' || key === 'parameters'))) {
      copy[key] = '[redacted]';
    } else {
      copy[key] = redactValue(field, redactText, depth + 1);
    }
  }
  return copy;
}

/** The URL to log for a request: as requested, or a secret-carrying route's pattern (see loggedUrlOf). */
export type LoggedUrl = (request: FastifyRequest) => string;

/**
 * pino serializers for `req` and `err` (and `error`) that keep secrets out: a request is logged as Fastify logs
 * it, with the URL `loggedUrl` gives; an error with pino's standard fields, where the parameters of a failed
 * query, credential fields, URLs of secret-carrying routes and recognisable secrets are replaced.
 */
export function secretSafeSerializers(secretUrls: SecretUrls, loggedUrl: LoggedUrl) {
  const err = (error: unknown): unknown => {
    const parameterTexts = queryParameterTexts(error);
    const redactText = (text: string) => {
      let redacted = text;
      for (const parameters of parameterTexts) redacted = redacted.split(parameters).join('params: [redacted]');
      return secretUrls.redact(maskSecrets(redacted));
    };
    return redactValue(pino.stdSerializers.err(error as Error), redactText, 0);
  };
  const req = (request: FastifyRequest | IncomingMessage) => {
    const url =
      'routeOptions' in request
        ? loggedUrl(request)
        : (secretUrls.lookalikeOf(request.url ?? '') ?? maskSecrets(request.url ?? ''));
    return {
      method: request.method,
      url,
      version: [request.headers['accept-version']].flat()[0],
      host: 'host' in request ? request.host : request.headers.host,
      remoteAddress: 'ip' in request ? request.ip : request.socket?.remoteAddress,
      remotePort: request.socket?.remotePort,
    };
  };
  return { req, err, error: err };
}
