import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export type ConfigProblem = { name: string; message: string };

/** Thrown by loadConfig; the message names every bad variable and why. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: ConfigProblem[]) {
    super(`Invalid configuration: ${problems.map((p) => p.message).join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type JsonSchema = TSchema & {
  type?: string | string[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
};

const booleanWords: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  yes: true,
  no: false,
  on: true,
  off: false,
};

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.anyOf)) return schema.anyOf.flatMap(typesOf);
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type === undefined ? [] : [schema.type];
}

// Env values are strings: turn them into what the schema asks for, or leave them for validation to reject.
function convert(raw: string, schema: JsonSchema): unknown {
  const types = typesOf(schema);
  if (types.includes('array')) {
    const items = raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    return schema.items === undefined ? items : items.map((item) => convert(item, schema.items as JsonSchema));
  }
  if (types.includes('integer') && /^[+-]?\d+$/.test(raw)) return Number(raw);
  if (types.includes('number') && raw !== '' && Number.isFinite(Number(raw))) return Number(raw);
  const word = booleanWords[raw.toLowerCase()];
  if (types.includes('boolean') && word !== undefined) return word;
  return raw;
}

function range(schema: JsonSchema): string {
  const { minimum, maximum } = schema;
  if (minimum !== undefined && maximum !== undefined) return ` between ${minimum} and ${maximum}`;
  if (minimum !== undefined) return ` >= ${minimum}`;
  if (maximum !== undefined) return ` <= ${maximum}`;
  if (schema.exclusiveMinimum !== undefined) return ` > ${schema.exclusiveMinimum}`;
  if (schema.exclusiveMaximum !== undefined) return ` < ${schema.exclusiveMaximum}`;
  return '';
}

const formatNames: Readonly<Record<string, string>> = {
  uri: 'an absolute URL',
  url: 'an absolute URL',
  email: 'an email address',
  uuid: 'a UUID',
  hostname: 'a host name',
  'date-time': 'an ISO 8601 date-time',
  date: 'a date (YYYY-MM-DD)',
};

/** What a variable must be, in words: "an integer between 0 and 65535", "one of: live, test". */
export function describeExpectation(schema: JsonSchema): string {
  const literals = schema.anyOf?.every((branch) => branch.const !== undefined);
  if (literals === true) return `one of: ${schema.anyOf?.map((branch) => String(branch.const)).join(', ')}`;
  if (schema.enum !== undefined) return `one of: ${schema.enum.map(String).join(', ')}`;
  if (schema.const !== undefined) return `exactly ${String(schema.const)}`;
  const [type] = typesOf(schema);
  switch (type) {
    case 'integer':
      return `an integer${range(schema)}`;
    case 'number':
      return `a number${range(schema)}`;
    case 'boolean':
      return 'a boolean (true/false, 1/0, yes/no, on/off)';
    case 'array':
      return `a comma-separated list of ${schema.items === undefined ? 'values' : describeExpectation(schema.items)}`;
    case 'string': {
      if (schema.format !== undefined) return formatNames[schema.format] ?? `a valid ${schema.format}`;
      const parts: string[] = [];
      if (schema.minLength !== undefined) parts.push(`at least ${schema.minLength} characters`);
      if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
      if (schema.pattern !== undefined) parts.push(`matching ${schema.pattern}`);
      return parts.length === 0 ? 'a string' : `a string of ${parts.join(', ')}`.replace('of matching', 'matching');
    }
    default:
      return 'a valid value';
  }
}

// Keep secrets out of error messages (and so out of logs).
const secretName = /SECRET|PASSWORD|PASSPHRASE|TOKEN|PRIVATE|CREDENTIAL|(^|_)KEY($|_)/i;

function shownValue(name: string, raw: string): string {
  if (secretName.test(name)) return ' (value hidden)';
  const withoutCredentials = raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1***@');
  const shortened = withoutCredentials.length > 80 ? `${withoutCredentials.slice(0, 77)}...` : withoutCredentials;
  return ` (got ${JSON.stringify(shortened)})`;
}

function propertyOf(error: ErrorObject): string | undefined {
  if (error.keyword === 'required') return String(error.params['missingProperty']);
  return error.instancePath.split('/')[1];
}

function compileValidator(schema: TObject): ValidateFunction {
  // A fresh instance per call: Ajv keeps schemas by $id, and loading runs once at boot anyway.
  const ajv = new Ajv({ allErrors: true, strictTypes: false, strictTuples: false, keywords: ['example'] });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

/**
 * Marks every secret of the example configurations (infra/k8s/secrets.example.yaml, infra/compose.env.example). A
 * value that still holds it was copied without being replaced: the service refuses to start rather than run with a
 * published password or key (docs/operations.md#configuration-placeholders).
 */
export const CONFIG_PLACEHOLDER = 'REPLACE_ME';

/**
 * Reads configuration from environment variables. Each property of `schema` is an env var name;
 * values are converted to the property's type, defaults apply, empty strings count as unset. A value holding
 * CONFIG_PLACEHOLDER is refused, whatever the property.
 */
export function loadConfig<T extends TObject>(schema: T, env: NodeJS.ProcessEnv = process.env): Static<T> {
  const properties = schema.properties as Record<string, JsonSchema>;
  const values: Record<string, unknown> = {};
  const raws: Record<string, string> = {};
  for (const [name, propertySchema] of Object.entries(properties)) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') {
      if (propertySchema.default !== undefined) values[name] = structuredClone(propertySchema.default);
      continue;
    }
    raws[name] = raw;
    values[name] = convert(raw, propertySchema);
  }

  const problems = new Map<string, ConfigProblem>();
  for (const [name, raw] of Object.entries(raws)) {
    if (raw.includes(CONFIG_PLACEHOLDER)) {
      problems.set(name, {
        name,
        message: `${name} still holds the ${CONFIG_PLACEHOLDER} placeholder of the example configuration (value hidden); set its real value`,
      });
    }
  }
  const validate = compileValidator(schema);
  if (validate(values) && problems.size === 0) return values as Static<T>;

  for (const error of validate.errors ?? []) {
    const name = propertyOf(error);
    if (name === undefined || problems.has(name)) continue;
    const propertySchema = properties[name];
    const raw = raws[name];
    const message =
      raw === undefined || propertySchema === undefined
        ? `${name} is required`
        : `${name} must be ${describeExpectation(propertySchema)}${shownValue(name, raw)}`;
    problems.set(name, { name, message });
  }
  if (problems.size === 0) {
    throw new ConfigError([{ name: '', message: validate.errors?.map((e) => e.message).join('; ') ?? 'invalid' }]);
  }
  throw new ConfigError([...problems.values()]);
}

/**
 * For a process entry point: runs `load` and, when it throws a ConfigError, prints its one-line message (every
 * bad variable, secret values hidden) to stderr and exits with code 1 instead of a stack trace. Other errors
 * are bugs and propagate.
 */
export function loadConfigOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return process.exit(1);
  }
}

/**
 * Validates the variable `name`, an absolute http(s) URL, and returns it without a trailing slash; otherwise pushes
 * the problem to `problems` and answers undefined.
 */
export function httpUrl(name: string, value: string, problems: ConfigProblem[]): string | undefined {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push({ name, message: `${name} must be an absolute http(s) URL (got ${JSON.stringify(value)})` });
    return undefined;
  }
  return value.replace(/\/+$/, '');
}

/** The variables both services read alike (docs/operations.md): the server, its stores, its body and rate limits. */
export interface ServiceEnv<Level extends string> {
  PORT: number;
  HOST: string;
  LOG_LEVEL: Level;
  DATABASE_URL?: string | undefined;
  DATABASE_POOL_SIZE: number;
  PGLITE_DATA_DIR?: string | undefined;
  REDIS_URL?: string | undefined;
  BODY_LIMIT_BYTES: number;
  RATE_LIMIT_PER_MINUTE: number;
  TRUST_PROXY: boolean;
  METRICS_TOKEN?: string | undefined;
}

/** What both services' configurations hold of ServiceEnv, camelCase. */
export interface ServiceConfig<Level extends string> {
  port: number;
  host: string;
  logLevel: Level;
  databaseUrl?: string;
  /** Size of the PostgreSQL connection pool (ignored on PGlite). */
  databasePoolSize: number;
  /** PGlite data folder, used only without databaseUrl; without either the database lives in memory. */
  pgliteDataDir?: string;
  redisUrl?: string;
  bodyLimitBytes: number;
  rateLimitPerMinute: number;
  /** Take the client address from X-Forwarded-For (behind a load balancer). */
  trustProxy: boolean;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
}

/** The camelCase ServiceConfig of validated ServiceEnv values, the same in both services. */
export function serviceConfigOf<Level extends string>(values: ServiceEnv<Level>): ServiceConfig<Level> {
  return {
    port: values.PORT,
    host: values.HOST,
    logLevel: values.LOG_LEVEL,
    ...(values.DATABASE_URL === undefined ? {} : { databaseUrl: values.DATABASE_URL }),
    databasePoolSize: values.DATABASE_POOL_SIZE,
    ...(values.PGLITE_DATA_DIR === undefined ? {} : { pgliteDataDir: values.PGLITE_DATA_DIR }),
    ...(values.REDIS_URL === undefined ? {} : { redisUrl: values.REDIS_URL }),
    bodyLimitBytes: values.BODY_LIMIT_BYTES,
    rateLimitPerMinute: values.RATE_LIMIT_PER_MINUTE,
    trustProxy: values.TRUST_PROXY,
    ...(values.METRICS_TOKEN === undefined ? {} : { metricsToken: values.METRICS_TOKEN }),
  };
}
