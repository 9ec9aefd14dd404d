import type { ValidationDetail } from './app-error.js';

// How the envelope names a field in its sentence (docs/decisions.md#validation-messages): as the API documents it,
// not as the validator locates it. `details[].path` keeps the location: `/metadata/plan` for the body,
// `querystring/newCycle`, `params/id`, `headers/x-organization-id` for the rest.

const wholeParts: Readonly<Record<string, string>> = {
  body: 'the request body',
  querystring: 'the query string',
  params: 'the path',
  headers: 'the headers',
};

function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** `metadata.plan`, `origins[0]`, `documents[2].kind`: a body pointer as the fields are written in JSON. */
function dottedName(pointer: string): string {
  let name = '';
  for (const token of pointer.split('/').slice(1).map(unescapeToken)) {
    if (/^(?:0|[1-9][0-9]*)$/.test(token) && name !== '') name += `[${token}]`;
    else name += name === '' ? token : `.${token}`;
  }
  return name;
}

/**
 * The field a detail's path names, in the API's terms: `id` for `params/id`, `newCycle` for `querystring/newCycle`,
 * `metadata.plan` for the body's `/metadata/plan`, `the x-organization-id header`; the part itself when the path
 * names a whole part (`/` is the request body).
 */
export function fieldNameOf(path: string): string {
  const [part, pointer] = path.startsWith('/') ? ['body', path] : splitPart(path);
  if (pointer === '' || pointer === '/') return wholeParts[part] ?? part;
  if (part === 'headers') return `the ${dottedName(pointer)} header`;
  return dottedName(pointer);
}

function splitPart(path: string): [string, string] {
  const slash = path.indexOf('/');
  return slash === -1 ? [path, ''] : [path.slice(0, slash), path.slice(slash)];
}

// Bounds the answer when allErrors reports every element of a long array.
const maxSentences = 5;

/**
 * The envelope's `error` for validation details: each detail as `<field> <message>` (`id must be a UUID`), the first
 * five joined by "; ", and how many more there are.
 */
export function sentenceOf(details: readonly ValidationDetail[]): string {
  const sentences = details.map((detail) => `${fieldNameOf(detail.path)} ${detail.message}`);
  const shown = sentences.slice(0, maxSentences).join('; ');
  const more = sentences.length - maxSentences;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}
