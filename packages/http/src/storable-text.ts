import {
  type SchemaValidationIssue,
  summarizeValidation,
  type ValidationDetail,
  validationError,
} from '@platform/errors';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type {} from './route-config.js';

/**
 * Whether `text` can be stored as PostgreSQL text: no U+0000, which `text` and `jsonb` refuse, and no unpaired
 * UTF-16 surrogate, which has no UTF-8 form. Anything else is storable, however odd.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/**
 * A copy of parsed JSON (or any plain data) in which every string and key can be stored: U+0000 and unpaired
 * surrogates become U+FFFD, the replacement character. For text that must be kept, not refused: a provider's
 * authentic message.
 */
export function toStorableText(value: unknown, depth = 0): unknown {
  if (typeof value === 'string')
    return isStorableText(value) ? value : value.replaceAll('\u0000', '\ufffd').toWellFormed();
  // JSON.parse has no depth limit, but a provider's message nests a few levels: deeper ones are dropped, not walked.
  if (depth > 64) return null;
  if (Array.isArray(value)) return value.map((item) => toStorableText(item, depth + 1));
  if (!isPlainData(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    Object.defineProperty(copy, toStorableText(key) as string, {
      value: toStorableText(field, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

export const unstorableTextMessage = 'must not contain U+0000 or unpaired UTF-16 surrogates';

/**
 * Whether `value` holds text that cannot be stored, walked as unstorablePointers walks it but without building a
 * pointer for every field: nearly every request has none, and naming each header and field it passed cost more
 * than the check itself (docs/benchmarks.md#per-request-checks-every-endpoint-26-nov).
 */
function holdsUnstorableText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (!isStorableText(current)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
    } else if (isPlainData(current)) {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (!isStorableText(key)) return true;
        stack.push(current[key]);
      }
    }
  }
  return false;
}

// Bodies are at most a few MiB, but a JSON body may nest thousands of levels: walk with a stack, not recursion.
function unstorablePointers(value: unknown, limit = 50): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0 && found.length < limit) {
    const [current, pointer] = stack.pop() as [unknown, string];
    if (typeof current === 'string') {
      if (!isStorableText(current)) found.push(pointer);
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push([current[index], `${pointer}/${index}`]);
    } else if (isPlainData(current)) {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, field] = entries[index] as [string, unknown];
        const child = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        // A key that cannot be stored is named by itself (its text is what is wrong).
        if (!isStorableText(key)) found.push(child);
        else stack.push([field, child]);
      }
    }
  }
  return found;
}

// Objects as JSON, query strings and headers are parsed into (some with a null prototype, or one that is); not
// Buffers, streams or other class instances that a content parser may hand over.
function isPlainData(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null;
}

const issueAt = (instancePath: string): SchemaValidationIssue => ({
  instancePath,
  keyword: 'storableText',
  message: unstorableTextMessage,
});

/**
 * preHandler: every string a request carries (path parameters, query, headers, a parsed body, at any depth, keys
 * included) must be storable text, else 400 `validation_error` naming each field
 * (docs/decisions.md#unstorable-text-is-refused). Runs after authentication and schema validation, so a route's
 * own rules and access checks answer first, and for every route, whether or not it declares a schema for each
 * part: no input reaches a handler, and so the database, with text PostgreSQL would refuse with a 500. Provider
 * callbacks (`config.sentByProvider`) keep such text instead, made storable by their handlers.
 */
export function refuseUnstorableText(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (request.routeOptions.config?.sentByProvider === true) {
    done();
    return;
  }
  const parts: [string, unknown][] = [
    ['params', request.params],
    ['querystring', request.query],
    ['headers', request.headers],
    ['body', request.body],
  ];
  let message: string | undefined;
  const details: ValidationDetail[] = [];
  for (const [context, value] of parts) {
    if (value === undefined || value === null || !holdsUnstorableText(value)) continue;
    const pointers = unstorablePointers(value);
    if (pointers.length === 0) continue;
    const summary = summarizeValidation(context, pointers.map(issueAt));
    message ??= summary.message;
    details.push(...summary.details);
  }
  done(message === undefined ? undefined : validationError(message, details));
}
