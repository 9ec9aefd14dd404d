import { createHash } from 'node:crypto';

/**
 * JSON with every object's keys sorted (recursively), so two bodies that differ only in key order have
 * the same text. Arrays keep their order; undefined members are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return canonicalJson(withToJson.toJSON());
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined || typeof item === 'function' ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  const members = Object.keys(value)
    .sort()
    .flatMap((key) => {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') return [];
      return [`${JSON.stringify(key)}:${canonicalJson(member)}`];
    });
  return `{${members.join(',')}}`;
}

export interface FingerprintInput {
  method: string;
  /** The route pattern, e.g. `/v1/drive/folders/:id`. */
  route: string;
  /** The route's path parameters: `DELETE /folders/a` and `DELETE /folders/b` are different requests. */
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/**
 * What makes two requests "the same request": method, route pattern and the SHA-256 of the canonical JSON
 * of the request's data (body, path parameters, query). Readable on purpose: `POST /v1/drive/folders <hex>`.
 */
export function requestFingerprint({ method, route, params, query, body }: FingerprintInput): string {
  const data = canonicalJson({ body: body ?? null, params: params ?? {}, query: query ?? {} });
  const digest = createHash('sha256').update(data).digest('hex');
  return `${method.toUpperCase()} ${route} ${digest}`;
}
