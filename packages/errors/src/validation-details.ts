import type { ValidationDetail } from './app-error.js';
import { sentenceOf } from './field-names.js';
import {
  ALLOWED_ANNOTATION,
  allowedBy,
  formatPhrases,
  isBareType,
  lengthPhrase,
  listOf,
  quoteValue,
  rangePhrase,
  typeNoun,
} from './schema-phrases.js';

/**
 * The fields of an Ajv error object that the envelope uses. With Ajv's `verbose` option (as `@platform/http`
 * compiles) `parentSchema` is the schema that failed, which the message is made from.
 */
export type SchemaValidationIssue = {
  instancePath?: string;
  schemaPath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
  parentSchema?: unknown;
};

export type ValidationSummary = { message: string; details: ValidationDetail[] };

type Schema = Record<string, unknown>;

// Bounds the response size when allErrors reports every element of a long array.
const maxDetails = 50;

function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const schemaOf = (issue: SchemaValidationIssue): Schema => (isSchema(issue.parentSchema) ? issue.parentSchema : {});
const mustBe = (phrase: string | undefined, otherwise: string) =>
  phrase === undefined ? otherwise : `must be ${phrase}`;

function requiredMessage(issue: SchemaValidationIssue): string {
  const property = issue.params?.['missingProperty'];
  const properties = schemaOf(issue)['properties'];
  const allowed = isSchema(properties) && typeof property === 'string' ? allowedBy(properties[property]) : undefined;
  // "name is required: text" says nothing the name does not; the values, a format or a range do.
  return allowed === undefined || isBareType(allowed) ? 'is required' : `is required: ${allowed}`;
}

function lengthMessage(issue: SchemaValidationIssue): string {
  const schema = schemaOf(issue);
  const limit = numberOf(issue.params?.['limit']);
  if (issue.keyword === 'minLength' && limit === 1 && schema['maxLength'] === undefined) return 'must not be empty';
  const phrase = lengthPhrase(schema);
  if (phrase !== undefined) return `must be ${phrase} long`;
  return issue.keyword === 'minLength'
    ? `must be at least ${limit} characters long`
    : `must be at most ${limit} characters long`;
}

const boundWords: Readonly<Record<string, string>> = {
  minimum: 'at least',
  maximum: 'at most',
  exclusiveMinimum: 'above',
  exclusiveMaximum: 'below',
};

function rangeMessage(issue: SchemaValidationIssue): string {
  const schema = schemaOf(issue);
  const phrase = schema['type'] === undefined ? rangePhrase(schema) : allowedBy(schema);
  if (phrase !== undefined) return `must be ${phrase}`;
  return `must be ${boundWords[issue.keyword ?? ''] ?? 'within'} ${String(issue.params?.['limit'])}`;
}

function itemsMessage(issue: SchemaValidationIssue): string {
  const schema = schemaOf(issue);
  const min = numberOf(schema['minItems']);
  const max = numberOf(schema['maxItems']);
  if (min !== undefined && max !== undefined) return `must list ${min}-${max} items`;
  if (issue.keyword === 'minItems') return min === 1 ? 'must not be empty' : `must list at least ${min} items`;
  return `must list at most ${max} items`;
}

/** The message of each keyword Ajv reports, in words; a keyword not named here falls back to `invalid`. */
const ajvKeywordMessages: Readonly<Record<string, (issue: SchemaValidationIssue) => string>> = {
  required: requiredMessage,
  additionalProperties: () => 'is not a field this request takes',
  type: (issue) => {
    const type = issue.params?.['type'];
    const known = typeof type === 'string' || Array.isArray(type) ? typeNoun(type) : undefined;
    return mustBe(allowedBy(schemaOf(issue)) ?? known, 'has the wrong type');
  },
  enum: (issue) => {
    const values = issue.params?.['allowedValues'];
    return Array.isArray(values) ? `must be ${listOf(values.map(quoteValue))}` : 'is not an allowed value';
  },
  const: (issue) =>
    issue.params !== undefined && 'allowedValue' in issue.params
      ? `must be ${quoteValue(issue.params['allowedValue'])}`
      : 'is not the allowed value',
  format: (issue) => {
    const annotated = schemaOf(issue)[ALLOWED_ANNOTATION];
    const format = issue.params?.['format'];
    const phrase = typeof annotated === 'string' ? annotated : formatPhrases[String(format)];
    return mustBe(phrase, 'is not in the form this field takes');
  },
  pattern: (issue) => {
    const annotated = schemaOf(issue)[ALLOWED_ANNOTATION];
    return mustBe(typeof annotated === 'string' ? annotated : undefined, 'is not in the form this field takes');
  },
  minLength: lengthMessage,
  maxLength: lengthMessage,
  minimum: rangeMessage,
  maximum: rangeMessage,
  exclusiveMinimum: rangeMessage,
  exclusiveMaximum: rangeMessage,
  multipleOf: (issue) => `must be a multiple of ${String(issue.params?.['multipleOf'])}`,
  minItems: itemsMessage,
  maxItems: itemsMessage,
  uniqueItems: () => 'must not list the same item twice',
  minProperties: (issue) => `must have at least ${String(issue.params?.['limit'])} fields`,
  maxProperties: (issue) => `must have at most ${String(issue.params?.['limit'])} fields`,
  anyOf: (issue) => mustBe(allowedBy(schemaOf(issue)), 'is not in any form this field takes'),
  oneOf: (issue) => mustBe(allowedBy(schemaOf(issue)), 'is not in any form this field takes'),
  not: () => 'is not allowed here',
  'false schema': () => 'is not allowed here',
  if: () => 'is invalid',
  contains: () => 'must list an item of the kind this field takes',
  dependencies: () => 'is invalid with the other fields sent',
  dependentRequired: () => 'needs another field sent with it',
  propertyNames: () => 'has a field name that is not allowed',
};

/**
 * The message of one issue: Ajv's keywords in words; an issue of our own (a keyword Ajv does not have, such as the
 * refusal of unstorable text) keeps the message it was given.
 */
function messageOf(issue: SchemaValidationIssue): string {
  const keyword = issue.keyword ?? '';
  const byKeyword = ajvKeywordMessages[keyword];
  if (byKeyword !== undefined) return byKeyword(issue);
  return issue.message ?? 'is invalid';
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

const isTypeMismatch = (group: SchemaValidationIssue[], at: string | undefined) =>
  group.length === 1 && group[0]?.keyword === 'type' && group[0].instancePath === at;

/**
 * The one branch of a union whose type the value has, when only one has it (`Union([String({format}), Null])` and
 * text): its own failures say what is wrong, better than the union's.
 */
function branchOfItsType(anyOf: SchemaValidationIssue, branches: Branches): SchemaValidationIssue[] | undefined {
  const ofItsType = [...branches.values()].filter((group) => !isTypeMismatch(group, anyOf.instancePath));
  return ofItsType.length === 1 ? ofItsType[0] : undefined;
}

/** A union that failed once per branch, said as one message: the values of a union of literals, else what it allows. */
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
    return `must be ${listOf(values.map(quoteValue))}`;
  }
  const union = allowedBy(schemaOf(anyOf));
  if (union !== undefined) return `must be ${union}`;
  const types = groups.map((group) =>
    isTypeMismatch(group, anyOf.instancePath) ? group[0]?.params?.['type'] : undefined,
  );
  if (types.every((type) => typeof type === 'string')) return `must be ${listOf(types.map(typeNoun))}`;
  return messageOf(anyOf);
}

/**
 * Turns the schema errors of one request part into envelope details and a sentence a person can act on, naming each
 * field as the API does ("id must be a UUID", "newCycle is required: monthly or yearly";
 * docs/decisions.md#validation-messages). No message repeats the validator's own words or quotes a pattern.
 */
export function summarizeValidation(context: string, issues: readonly SchemaValidationIssue[]): ValidationSummary {
  const all = [...issues];
  const folded = new Set<SchemaValidationIssue>();
  const messages = new Map<SchemaValidationIssue, string>();
  for (const issue of all) {
    if (issue.keyword !== 'anyOf' && issue.keyword !== 'oneOf') continue;
    const branches = branchesOf(issue, all);
    const chosen = branchOfItsType(issue, branches);
    for (const group of branches.values()) if (group !== chosen) for (const inner of group) folded.add(inner);
    if (chosen === undefined) messages.set(issue, anyOfMessage(issue, branches));
    else folded.add(issue);
  }

  const details: ValidationDetail[] = [];
  for (const issue of all) {
    if (folded.has(issue)) continue;
    const message = messages.get(issue) ?? messageOf(issue);
    const detail = { path: locationOf(context, pointerOf(issue)), message };
    if (details.some((d) => d.path === detail.path && d.message === detail.message)) continue;
    details.push(detail);
  }

  if (details.length === 0)
    return { message: sentenceOf([{ path: locationOf(context, ''), message: 'is invalid' }]), details };
  return { message: sentenceOf(details), details: details.slice(0, maxDetails) };
}
