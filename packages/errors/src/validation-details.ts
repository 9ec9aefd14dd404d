import type { ValidationDetail } from './app-error.js';

/** The fields of an Ajv error object (also produced by TypeBox's compiler) that the envelope uses. */
export type SchemaValidationIssue = {
  instancePath?: string;
  schemaPath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
};

export type ValidationSummary = { message: string; details: ValidationDetail[] };

// Bounds the response size when allErrors reports every element of a long array.
const maxDetails = 50;
const maxSentences = 5;

function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function quoteValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// `required` and `additionalProperties` are reported on the parent object: point at the property itself.
function pointerOf(issue: SchemaValidationIssue): string {
  const base = issue.instancePath ?? '';
  const property = issue.params?.['missingProperty'] ?? issue.params?.['additionalProperty'];
  if ((issue.keyword === 'required' || issue.keyword === 'additionalProperties') && typeof property === 'string') {
    return `${base}/${escapePointerToken(property)}`;
  }
  return base;
}

/** Readable location: body fields as JSON pointers ('/amount'), other parts prefixed ('querystring/newSeats'). */
export function locationOf(context: string, pointer: string): string {
  if (context === 'body') return pointer === '' ? '/' : pointer;
  return `${context}${pointer}`;
}

function messageOf(issue: SchemaValidationIssue): string {
  const message = issue.message ?? 'is invalid';
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.['allowedValues'])) {
    return `must be one of: ${(issue.params['allowedValues'] as unknown[]).map(quoteValue).join(', ')}`;
  }
  if (issue.keyword === 'const' && issue.params !== undefined && 'allowedValue' in issue.params) {
    return `must be ${quoteValue(issue.params['allowedValue'])}`;
  }
  return message;
}

type Branches = Map<string, SchemaValidationIssue[]>;

function branchesOf(anyOf: SchemaValidationIssue, issues: SchemaValidationIssue[]): Branches {
  const prefix = `${anyOf.schemaPath ?? ''}/`;
  const branches: Branches = new Map();
  for (const issue of issues) {
    const schemaPath = issue.schemaPath ?? '';
    if (issue === anyOf || !schemaPath.startsWith(prefix)) continue;
    const branch = schemaPath.slice(prefix.length).split('/')[0] ?? '';
    branches.set(branch, [...(branches.get(branch) ?? []), issue]);
  }
  return branches;
}

// A union of literals (TypeBox Union([Literal...])) fails once per branch; say it as one sentence instead.
function anyOfMessage(anyOf: SchemaValidationIssue, branches: Branches): string {
  const groups = [...branches.values()];
  if (groups.length === 0) return messageOf(anyOf);
  const allowed = groups.map((group) => group.find((i) => i.keyword === 'const' || i.keyword === 'enum'));
  if (allowed.every((issue) => issue !== undefined)) {
    const values = allowed.flatMap((issue) =>
      issue.keyword === 'enum'
        ? ((issue.params?.['allowedValues'] as unknown[] | undefined) ?? [])
        : [issue.params?.['allowedValue']],
    );
    return `must be one of: ${values.map(quoteValue).join(', ')}`;
  }
  const types = groups.map((group) =>
    group.length === 1 && group[0]?.keyword === 'type' ? group[0].params?.['type'] : undefined,
  );
  if (types.every((type) => typeof type === 'string')) return `must be ${types.join(' or ')}`;
  return messageOf(anyOf);
}

/**
 * Turns the schema errors of one request part into envelope details and a readable sentence
 * such as "body/amount must be integer".
 */
export function summarizeValidation(context: string, issues: readonly SchemaValidationIssue[]): ValidationSummary {
  const all = [...issues];
  const folded = new Set<SchemaValidationIssue>();
  const messages = new Map<SchemaValidationIssue, string>();
  for (const issue of all) {
    if (issue.keyword !== 'anyOf' && issue.keyword !== 'oneOf') continue;
    const branches = branchesOf(issue, all);
    for (const group of branches.values()) for (const inner of group) folded.add(inner);
    messages.set(issue, anyOfMessage(issue, branches));
  }

  const details: ValidationDetail[] = [];
  const sentences: string[] = [];
  for (const issue of all) {
    if (folded.has(issue)) continue;
    const message = messages.get(issue) ?? messageOf(issue);
    const detail = { path: locationOf(context, pointerOf(issue)), message };
    if (details.some((d) => d.path === detail.path && d.message === detail.message)) continue;
    details.push(detail);
    sentences.push(`${context}${issue.instancePath ?? ''} ${message}`);
  }

  if (details.length === 0) return { message: `${context} is invalid`, details };
  const shown = sentences.slice(0, maxSentences).join(', ');
  const more = sentences.length - maxSentences;
  return { message: more > 0 ? `${shown} and ${more} more` : shown, details: details.slice(0, maxDetails) };
}
