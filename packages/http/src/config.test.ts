import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_PLACEHOLDER, ConfigError, loadConfig, loadConfigOrExit } from './config.js';

const Schema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  DATABASE_URL: Type.Optional(Type.String({ format: 'uri' })),
  SAMPLE_RATE: Type.Number({ minimum: 0, maximum: 1, default: 1 }),
  TRUST_PROXY: Type.Boolean({ default: false }),
  LOG_LEVEL: Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn')], { default: 'info' }),
  CORS_ORIGINS: Type.Array(Type.String(), { default: [] }),
});

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the defaults when nothing is set', () => {
    expect(loadConfig(Schema, {})).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      SAMPLE_RATE: 1,
      TRUST_PROXY: false,
      LOG_LEVEL: 'info',
      CORS_ORIGINS: [],
    });
  });

  it('converts strings to the types the schema asks for', () => {
    const config = loadConfig(Schema, {
      PORT: '8080',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      SAMPLE_RATE: '0.25',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'debug',
      CORS_ORIGINS: 'https://app.example.com, https://admin.example.com',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      SAMPLE_RATE: 0.25,
      TRUST_PROXY: true,
      LOG_LEVEL: 'debug',
      CORS_ORIGINS: ['https://app.example.com', 'https://admin.example.com'],
    });
  });

  it.each([
    ['1', true],
    ['yes', true],
    ['ON', true],
    ['0', false],
    ['no', false],
    ['off', false],
  ])('reads the boolean %s as %s', (raw, expected) => {
    expect(loadConfig(Schema, { TRUST_PROXY: raw }).TRUST_PROXY).toBe(expected);
  });

  it('treats empty and blank strings as unset', () => {
    expect(loadConfig(Schema, { PORT: '', HOST: '   ', DATABASE_URL: '' })).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
    });
    expect(loadConfig(Schema, { DATABASE_URL: '' })).not.toHaveProperty('DATABASE_URL');
  });

  it('names a bad variable, what it must be and what it got', () => {
    const error = configError(() => loadConfig(Schema, { PORT: 'abc' }));
    expect(error.message).toBe('Invalid configuration: PORT must be an integer between 0 and 65535 (got "abc")');
    expect(error.problems).toEqual([{ name: 'PORT', message: expect.stringContaining('PORT must be') }]);
  });

  it('rejects numbers out of range and non-integers', () => {
    expect(configError(() => loadConfig(Schema, { PORT: '70000' })).message).toContain(
      'PORT must be an integer between 0 and 65535 (got "70000")',
    );
    expect(configError(() => loadConfig(Schema, { PORT: '80.5' })).message).toContain('(got "80.5")');
  });

  it('lists every bad variable at once', () => {
    const error = configError(() =>
      loadConfig(Schema, { PORT: '-1', TRUST_PROXY: 'maybe', LOG_LEVEL: 'loud', DATABASE_URL: 'not a url' }),
    );
    expect(error.problems.map((problem) => problem.name).sort()).toEqual([
      'DATABASE_URL',
      'LOG_LEVEL',
      'PORT',
      'TRUST_PROXY',
    ]);
    expect(error.message).toContain('TRUST_PROXY must be a boolean (true/false, 1/0, yes/no, on/off) (got "maybe")');
    expect(error.message).toContain('LOG_LEVEL must be one of: debug, info, warn (got "loud")');
    expect(error.message).toContain('DATABASE_URL must be an absolute URL (got "not a url")');
  });

  it('says when a required variable is missing', () => {
    const Required = Type.Object({ AUTH_JWKS_URL: Type.String({ format: 'uri' }), PORT: Type.Integer() });
    const error = configError(() => loadConfig(Required, { PORT: '1' }));
    expect(error.message).toBe('Invalid configuration: AUTH_JWKS_URL is required');
  });

  it('keeps secrets and URL credentials out of the message', () => {
    const Secrets = Type.Object({
      AUTH_JWT_SECRET: Type.String({ minLength: 32 }),
      REDIS_URL: Type.String({ pattern: '^redis://' }),
    });
    const error = configError(() =>
      loadConfig(Secrets, { AUTH_JWT_SECRET: 'short-secret', REDIS_URL: 'http://user:hunter2@cache:6379' }),
    );
    expect(error.message).toContain('AUTH_JWT_SECRET must be a string of at least 32 characters (value hidden)');
    expect(error.message).toContain('REDIS_URL must be a string matching ^redis:// (got "http://***@cache:6379")');
    expect(error.message).not.toContain('short-secret');
    expect(error.message).not.toContain('hunter2');
  });

  it('refuses a value still holding the example configuration placeholder, whatever it is valid as, hiding it', () => {
    const Secrets = Type.Object({
      DATABASE_URL: Type.String({ format: 'uri' }),
      METRICS_TOKEN: Type.String({ minLength: 16 }),
      HOST: Type.String({ default: '0.0.0.0' }),
    });
    const copied = {
      DATABASE_URL: `postgres://platform:${CONFIG_PLACEHOLDER}@db.example.internal:5432/platform`,
      METRICS_TOKEN: `${CONFIG_PLACEHOLDER}-metrics-token-of-16-or-more-characters`,
    };
    const error = configError(() => loadConfig(Secrets, copied));
    expect(error.problems.map(({ name }) => name)).toEqual(['DATABASE_URL', 'METRICS_TOKEN']);
    expect(error.message).toContain(
      `METRICS_TOKEN still holds the ${CONFIG_PLACEHOLDER} placeholder of the example configuration (value hidden)`,
    );
    expect(error.message).not.toContain('db.example.internal');
    expect(error.message).not.toContain('metrics-token-of');
    // With the values replaced, the same configuration loads.
    const replaced = { ...copied, DATABASE_URL: 'postgres://platform:s3cret@db.example.internal:5432/platform' };
    expect(() => loadConfig(Secrets, replaced)).toThrow(/METRICS_TOKEN still holds/);
    expect(loadConfig(Secrets, { ...replaced, METRICS_TOKEN: 'a-real-metrics-token-0123' }).HOST).toBe('0.0.0.0');
  });

  it('reads process.env by default', () => {
    const Env = Type.Object({ PLATFORM_TEST_ONLY_VALUE: Type.Integer({ default: 1 }) });
    process.env['PLATFORM_TEST_ONLY_VALUE'] = '42';
    try {
      expect(loadConfig(Env).PLATFORM_TEST_ONLY_VALUE).toBe(42);
    } finally {
      delete process.env['PLATFORM_TEST_ONLY_VALUE'];
    }
  });
});

describe('loadConfigOrExit', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Runs loadConfigOrExit with process.exit stopped, and reports what it printed and its exit code. */
  function run(load: () => unknown): { exitCode: number | undefined; printed: unknown[][]; result?: unknown } {
    const printed: unknown[][] = [];
    let exitCode: number | undefined;
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(args));
    vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
      exitCode = code;
      throw new Error('process.exit');
    }) as typeof process.exit);
    try {
      return { exitCode, printed, result: loadConfigOrExit(load) };
    } catch (error) {
      if ((error as Error).message !== 'process.exit') throw error;
      return { exitCode, printed };
    }
  }

  it('returns the configuration when it is valid', () => {
    expect(run(() => loadConfig(Schema, { PORT: '8080' }))).toMatchObject({
      exitCode: undefined,
      printed: [],
      result: { PORT: 8080 },
    });
  });

  it('prints the one-line message naming the variable and exits with 1, without a stack trace', () => {
    const outcome = run(() => loadConfig(Schema, { PORT: 'abc' }));
    expect(outcome.exitCode).toBe(1);
    expect(outcome.printed).toEqual([
      ['Invalid configuration: PORT must be an integer between 0 and 65535 (got "abc")'],
    ]);
  });

  it('lets other errors through: they are bugs, not configuration', () => {
    expect(() =>
      run(() => {
        throw new TypeError('boom');
      }),
    ).toThrow(TypeError);
  });
});
