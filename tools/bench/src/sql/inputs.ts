import { hashApiKeySecret } from '@platform/api-keys';

// A request's inputs, by the slot names SQL templates refer to: `header:<name>`, `body:<field>` (string fields of
// a JSON body), `param:<name>` (a path parameter of the endpoint's route) and the values a service derives from
// them before any statement sees them. The recorder names them this way and the same-SQL baseline reads them
// this way, so a statement parameter that is an input (or derived from one) is filled per request on replay.

/** The SHA-256 of `x-service-api-key`: backend-api finds the key by it, so it is a parameter of the first statement. */
const API_KEY_HASH = 'derived:api-key-hash';
const API_KEY_HEADER = 'x-service-api-key';

/** What a request carries, as a server sees it. */
export interface RequestParts {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body, if any. */
  body: unknown;
  /** The path parameters of the route that matched. */
  params: Readonly<Record<string, string>>;
}

/** One input of the request, or undefined when it has none of that name. */
export function readInput(parts: RequestParts, name: string): string | undefined {
  if (name.startsWith('header:')) return headerOf(parts, name.slice('header:'.length));
  if (name.startsWith('body:')) {
    const body = (parts.body ?? {}) as Record<string, unknown>;
    const value = body[name.slice('body:'.length)];
    return typeof value === 'string' ? value : undefined;
  }
  if (name.startsWith('param:')) return parts.params[name.slice('param:'.length)];
  if (name === API_KEY_HASH) {
    const secret = headerOf(parts, API_KEY_HEADER);
    return secret === undefined ? undefined : hashApiKeySecret(secret);
  }
  return undefined;
}

/** Every input of the request by slot name (what a recording is compared with). */
export function inputsOf(parts: RequestParts): Record<string, string> {
  const names = [
    ...Object.keys(parts.headers).map((name) => `header:${name.toLowerCase()}`),
    ...Object.keys((parts.body ?? {}) as Record<string, unknown>).map((field) => `body:${field}`),
    ...Object.keys(parts.params).map((name) => `param:${name}`),
    API_KEY_HASH,
  ];
  const inputs: Record<string, string> = {};
  for (const name of names) {
    const value = readInput(parts, name);
    if (value !== undefined) inputs[name] = value;
  }
  return inputs;
}

function headerOf(parts: RequestParts, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(parts.headers)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
