import { createHash } from 'node:crypto';

type Step = { text: string } | { value: unknown };

/**
 * JSON with every object's keys sorted (recursively), so two bodies that differ only in key order have
 * the same text. Arrays keep their order; undefined members are left out, as JSON.stringify does.
 * Walks with its own stack instead of recursing: a parsed request body can nest deeper than the call stack
 * allows (a 1 MiB body of `[` is a million levels).
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  const steps: Step[] = [{ value }];
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if ('text' in step) {
      parts.push(step.text);
      continue;
    }
    const current = step.value;
    if (current === null || typeof current !== 'object') {
      parts.push(JSON.stringify(current) ?? 'null');
      continue;
    }
    const withToJson = current as { toJSON?: () => unknown };
    if (typeof withToJson.toJSON === 'function') {
      steps.push({ value: withToJson.toJSON() });
      continue;
    }
    // Steps run last-in first-out, so each container's pieces are pushed in reverse.
    if (Array.isArray(current)) {
      steps.push({ text: ']' });
      for (let index = current.length - 1; index >= 0; index -= 1) {
        const item: unknown = current[index];
        steps.push(item === undefined || typeof item === 'function' ? { text: 'null' } : { value: item });
        if (index > 0) steps.push({ text: ',' });
      }
      steps.push({ text: '[' });
      continue;
    }
    const members = Object.keys(current)
      .sort()
      .filter((key) => {
        const member = (current as Record<string, unknown>)[key];
        return !(member === undefined || typeof member === 'function' || typeof member === 'symbol');
      });
    steps.push({ text: '}' });
    for (let index = members.length - 1; index >= 0; index -= 1) {
      const key = members[index] as string;
      steps.push({ value: (current as Record<string, unknown>)[key] });
      steps.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` });
    }
    steps.push({ text: '{' });
  }
  return parts.join('');
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
