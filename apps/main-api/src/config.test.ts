import path from 'node:path';
import { ConfigError } from '@platform/http';
import { describe, expect, it } from 'vitest';
import { loadMainApiConfig } from './config.js';

const required = {
  AUTH_JWT_SECRET: 's'.repeat(32),
  AUTH_ISSUER: 'https://identity.example.com/',
  AUTH_AUDIENCE: 'main-api',
};

/** A document key entry (32 zero bytes): config tests never encrypt anything. */
const DOCUMENT_KEY = `k1:${Buffer.alloc(32).toString('base64')}`;

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadMainApiConfig(env, '/srv/app');
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadMainApiConfig', () => {
  it('reads the verification retention bounds backend-api reads, and refuses to start unless min <= default <= max', () => {
    expect(loadMainApiConfig(required, '/srv/app').verificationRetention).toEqual({
      defaultDays: 30,
      minDays: 7,
      maxDays: 2555,
    });
    const error = configError({ ...required, VERIFICATION_RETENTION_MIN_DAYS: '60' });
    expect(error.problems.map(({ name }) => name)).toEqual(['VERIFICATION_RETENTION_DAYS']);
    expect(error.message).toContain('VERIFICATION_RETENTION_MIN_DAYS (60) <= VERIFICATION_RETENTION_DAYS (30)');
  });

  it('applies the defaults', () => {
    expect(loadMainApiConfig(required, '/srv/app')).toEqual({
      port: 3000,
      host: '0.0.0.0',
      logLevel: 'info',
      auth: { keys: { kind: 'secret', secret: 's'.repeat(32) }, issuer: required.AUTH_ISSUER, audience: 'main-api' },
      corsOrigins: [],
      publicUrl: 'http://localhost:3000',
      avatars: {
        storage: { kind: 'local', directory: path.resolve('/srv/app/.data/avatars') },
        maxBytes: 5 * 1024 * 1024,
      },
      bodyLimitBytes: 1024 * 1024,
      rateLimitPerMinute: 300,
      apiKeys: { rateLimitMaxPerMinute: 600 },
      trustProxy: false,
      migrateOnStart: false,
      testWalletCredit: 10_000,
      verificationRetention: { defaultDays: 30, minDays: 7, maxDays: 2555 },
      activation: { decisionSource: 'manual', sessionTtlHours: 168 },
      databasePoolSize: 10,
      idempotencyPurgeIntervalMs: 3_600_000,
      webhooks: { allowPrivateTargets: false },
      mail: { transport: { kind: 'none' }, from: 'Platform <no-reply@localhost>' },
      // Payments' own defaults are checked in modules/billing/config.test.ts.
      payments: expect.objectContaining({ card: { kind: 'sandbox' } }),
      // Off a deployment, without a key: the vault makes one for its process.
      documents: {
        keyring: undefined,
        storage: { kind: 'local', directory: path.resolve('/srv/app/.data/documents') },
      },
      // No identity provider: the dashboard is off, its cookie key random for the process.
      dashboard: { sessionSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    });
  });

  it('reads every variable', () => {
    const config = loadMainApiConfig(
      {
        ...required,
        PORT: '8080',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'debug',
        DATABASE_URL: 'postgres://db/main',
        DOCUMENT_ENCRYPTION_KEY: DOCUMENT_KEY,
        REDIS_URL: 'redis://cache:6379',
        CORS_ORIGINS: 'https://app.example.com, https://admin.example.com/',
        PUBLIC_URL: 'https://api.example.com/',
        SANDBOX_CHECKOUT_SECRET: 'c'.repeat(32),
        AVATAR_MAX_BYTES: '1000',
        BODY_LIMIT_BYTES: '2000',
        RATE_LIMIT_PER_MINUTE: '60',
        API_KEY_RATE_LIMIT_MAX_PER_MINUTE: '5000',
        TRUST_PROXY: 'true',
        METRICS_TOKEN: 'metrics-token-0123456789',
        MIGRATE_ON_START: 'true',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        AVATAR_LOCAL_DIR: 'uploads',
        DATABASE_POOL_SIZE: '6',
        IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
      },
      '/srv/app',
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'debug',
      databaseUrl: 'postgres://db/main',
      redisUrl: 'redis://cache:6379',
      corsOrigins: ['https://app.example.com', 'https://admin.example.com'],
      publicUrl: 'https://api.example.com',
      avatars: { storage: { kind: 'local', directory: path.resolve('/srv/app/uploads') }, maxBytes: 1000 },
      bodyLimitBytes: 2000,
      rateLimitPerMinute: 60,
      apiKeys: { rateLimitMaxPerMinute: 5000 },
      trustProxy: true,
      metricsToken: 'metrics-token-0123456789',
      migrateOnStart: true,
      databasePoolSize: 6,
      idempotencyPurgeIntervalMs: 0,
      webhooks: { allowPrivateTargets: true },
      payments: expect.objectContaining({ card: { kind: 'sandbox', formSecret: 'c'.repeat(32) } }),
    });
  });

  describe('on an external database (DATABASE_URL)', () => {
    const external = {
      ...required,
      DATABASE_URL: 'postgres://platform@db.internal:5432/platform',
      DOCUMENT_ENCRYPTION_KEY: DOCUMENT_KEY,
    };
    const deployed = { ...external, PUBLIC_URL: 'https://api.example.com', SANDBOX_CHECKOUT_SECRET: 'c'.repeat(32) };

    it('keeps the local fallbacks on the embedded database: localhost URL, a form secret per process', () => {
      const config = loadMainApiConfig({ ...required, PORT: '4000' }, '/srv/app');
      expect(config.publicUrl).toBe('http://localhost:4000');
      expect(config.payments.card).toEqual({ kind: 'sandbox' });
      expect(config.payments.returnUrl).toBe('http://localhost:4000/v1/billing/checkout/complete');
    });

    it('requires PUBLIC_URL and SANDBOX_CHECKOUT_SECRET, naming both in one line', () => {
      const error = configError(external);
      expect(error.problems.map(({ name }) => name)).toEqual(['PUBLIC_URL', 'SANDBOX_CHECKOUT_SECRET']);
      expect(error.message).toMatch(
        /^Invalid configuration: PUBLIC_URL is required when DATABASE_URL is set: .*; SANDBOX_CHECKOUT_SECRET is required when DATABASE_URL is set and the sandbox card checkout is in use /,
      );
      expect(error.message).toContain('http://localhost:3000');
      expect(error.message).not.toContain('\n');
    });

    it.each([
      ['PUBLIC_URL', { PUBLIC_URL: undefined }],
      ['SANDBOX_CHECKOUT_SECRET', { SANDBOX_CHECKOUT_SECRET: '' }],
    ])('refuses it without %s alone', (name, overrides) => {
      expect(configError({ ...deployed, ...overrides }).problems.map((problem) => problem.name)).toEqual([name]);
    });

    it('accepts it with both, and uses them', () => {
      const config = loadMainApiConfig(deployed, '/srv/app');
      expect(config.publicUrl).toBe('https://api.example.com');
      expect(config.payments.card).toEqual({ kind: 'sandbox', formSecret: 'c'.repeat(32) });
      expect(config.payments.returnUrl).toBe('https://api.example.com/v1/billing/checkout/complete');
    });

    it('needs no SANDBOX_CHECKOUT_SECRET when Paystack takes the cards', () => {
      const config = loadMainApiConfig({
        ...deployed,
        SANDBOX_CHECKOUT_SECRET: undefined,
        PAYSTACK_SECRET_KEY: 'sk_live_x',
      });
      expect(config.payments.card).toMatchObject({ kind: 'paystack' });
    });

    it('requires DOCUMENT_ENCRYPTION_KEY, as backend-api does: reviewers read what it encrypted', () => {
      const error = configError({ ...deployed, DOCUMENT_ENCRYPTION_KEY: undefined });
      expect(error.problems.map(({ name }) => name)).toEqual(['DOCUMENT_ENCRYPTION_KEY']);
      expect(error.message).toContain('DOCUMENT_ENCRYPTION_KEY is required when DATABASE_URL is set');
    });

    it('reports only the Paystack key when the sandbox is not allowed', () => {
      const error = configError({ ...deployed, SANDBOX_CHECKOUT_SECRET: undefined, PAYMENTS_SANDBOX_ALLOWED: 'false' });
      const names = error.problems.map(({ name }) => name);
      expect(names).toContain('PAYSTACK_SECRET_KEY');
      expect(names).not.toContain('SANDBOX_CHECKOUT_SECRET');
    });
  });

  it('reads the test credit and the activation settings, and refuses bad ones (docs/decisions.md#going-live)', () => {
    const config = loadMainApiConfig(
      {
        ...required,
        TEST_WALLET_CREDIT: '0',
        VERIFY_URL: 'https://verify.example.com/',
        ACTIVATION_DECISION_SOURCE: 'smile_id',
        ACTIVATION_SESSION_TTL_HOURS: '48',
      },
      '/srv/app',
    );
    expect(config.testWalletCredit).toBe(0);
    expect(config.activation).toEqual({
      verifyUrl: 'https://verify.example.com',
      decisionSource: 'smile_id',
      sessionTtlHours: 48,
    });
    for (const [name, value] of [
      ['TEST_WALLET_CREDIT', '-1'],
      ['TEST_WALLET_CREDIT', '1000000001'],
      ['TEST_WALLET_CREDIT', '10.5'],
      ['ACTIVATION_DECISION_SOURCE', 'reviewers'],
      ['VERIFY_URL', 'ftp://verify.example.com'],
    ] as const) {
      expect(() => loadMainApiConfig({ ...required, [name]: value }, '/srv/app')).toThrow(name);
    }
  });

  it('takes a JWKS URL instead of a secret', () => {
    const { AUTH_JWT_SECRET: _secret, ...withoutSecret } = required;
    const config = loadMainApiConfig({ ...withoutSecret, AUTH_JWKS_URL: 'https://identity.example.com/jwks.json' });
    expect(config.auth.keys).toEqual({ kind: 'jwks', jwksUrl: new URL('https://identity.example.com/jwks.json') });
  });

  it('takes a secret and a JWKS URL together: each token is judged by the key its algorithm names', () => {
    const config = loadMainApiConfig({ ...required, AUTH_JWKS_URL: 'https://identity.example.com/jwks.json' });
    expect(config.auth.keys).toEqual({
      kind: 'secretAndJwks',
      secret: required.AUTH_JWT_SECRET,
      jwksUrl: new URL('https://identity.example.com/jwks.json'),
    });
  });

  it('builds the S3 settings', () => {
    const config = loadMainApiConfig({
      ...required,
      AVATAR_STORAGE: 's3',
      S3_BUCKET: 'avatars',
      S3_PUBLIC_URL: 'https://cdn.example.com/',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'key',
    });
    expect(config.avatars.storage).toEqual({
      kind: 's3',
      region: 'us-east-1',
      bucket: 'avatars',
      publicUrl: 'https://cdn.example.com',
      endpoint: 'http://minio:9000',
      accessKeyId: 'id',
      secretAccessKey: 'key',
    });
  });

  it.each([
    [
      'neither a secret nor a JWKS URL',
      { AUTH_JWT_SECRET: undefined },
      /one of AUTH_JWT_SECRET .* and AUTH_JWKS_URL is required/,
    ],
    [
      'a short secret',
      { AUTH_JWT_SECRET: 'short' },
      /AUTH_JWT_SECRET must be a string of at least 32 characters \(value hidden\)/,
    ],
    [
      'a JWKS URL that is not http(s)',
      { AUTH_JWT_SECRET: undefined, AUTH_JWKS_URL: 'ftp://x/jwks' },
      /AUTH_JWKS_URL must be an absolute http\(s\) URL/,
    ],
    ['a missing issuer', { AUTH_ISSUER: undefined }, /AUTH_ISSUER is required/],
    ['a missing audience', { AUTH_AUDIENCE: '' }, /AUTH_AUDIENCE is required/],
    ['a bad port', { PORT: 'abc' }, /PORT must be an integer between 0 and 65535 \(got "abc"\)/],
    ['an unknown storage', { AVATAR_STORAGE: 'ftp' }, /AVATAR_STORAGE must be one of: local, s3/],
    [
      's3 without bucket and public URL',
      { AVATAR_STORAGE: 's3' },
      /S3_BUCKET is required when AVATAR_STORAGE is s3; S3_PUBLIC_URL is required/,
    ],
    [
      'half of the S3 credentials',
      { AVATAR_STORAGE: 's3', S3_BUCKET: 'b', S3_PUBLIC_URL: 'https://cdn.example.com', S3_ACCESS_KEY_ID: 'id' },
      /must be set together/,
    ],
    ['a relative public URL', { PUBLIC_URL: 'api.example.com' }, /PUBLIC_URL must be an absolute http\(s\) URL/],
    ['a zero avatar limit', { AVATAR_MAX_BYTES: '0' }, /AVATAR_MAX_BYTES must be an integer >= 1/],
    [
      'an empty pool',
      { DATABASE_POOL_SIZE: '0' },
      /DATABASE_POOL_SIZE must be an integer between 1 and 100 \(got "0"\)/,
    ],
    [
      'a pool larger than PostgreSQL allows',
      { DATABASE_POOL_SIZE: '101' },
      /DATABASE_POOL_SIZE must be an integer between 1 and 100/,
    ],
    ['a fractional pool', { DATABASE_POOL_SIZE: '2.5' }, /DATABASE_POOL_SIZE must be an integer/],
    [
      'a negative purge interval',
      { IDEMPOTENCY_PURGE_INTERVAL_MS: '-1' },
      /IDEMPOTENCY_PURGE_INTERVAL_MS must be an integer >= 0/,
    ],
    [
      'a zero key rate limit maximum',
      { API_KEY_RATE_LIMIT_MAX_PER_MINUTE: '0' },
      /API_KEY_RATE_LIMIT_MAX_PER_MINUTE must be an integer between 1 and 100000/,
    ],
    [
      'a key rate limit maximum above the absolute bound',
      { API_KEY_RATE_LIMIT_MAX_PER_MINUTE: '100001' },
      /API_KEY_RATE_LIMIT_MAX_PER_MINUTE must be an integer between 1 and 100000/,
    ],
    [
      'a key rate limit maximum in words',
      { API_KEY_RATE_LIMIT_MAX_PER_MINUTE: 'lots' },
      /API_KEY_RATE_LIMIT_MAX_PER_MINUTE must be an integer/,
    ],
  ])('refuses %s with a message naming the variable', (_label, overrides, message) => {
    expect(configError({ ...required, ...overrides }).message).toMatch(message);
  });

  describe('mail (invitations)', () => {
    it('sends through SMTP_URL, from MAIL_FROM', () => {
      const config = loadMainApiConfig(
        { ...required, SMTP_URL: 'smtp://mailer:pw@smtp.example.com:587', MAIL_FROM: 'Acme <team@acme.example>' },
        '/srv/app',
      );
      expect(config.mail).toEqual({
        transport: { kind: 'smtp', url: 'smtp://mailer:pw@smtp.example.com:587' },
        from: 'Acme <team@acme.example>',
      });
    });

    it('writes .eml files to MAIL_OUTBOX_DIR, relative to the working directory', () => {
      expect(loadMainApiConfig({ ...required, MAIL_OUTBOX_DIR: '.data/outbox' }, '/srv/app').mail.transport).toEqual({
        kind: 'outbox',
        directory: path.resolve('/srv/app/.data/outbox'),
      });
    });

    it('prefers SMTP_URL when both are set', () => {
      const env = { ...required, SMTP_URL: 'smtps://smtp.example.com', MAIL_OUTBOX_DIR: 'outbox' };
      expect(loadMainApiConfig(env, '/srv/app').mail.transport.kind).toBe('smtp');
    });

    it('refuses an SMTP_URL that is not smtp:// or smtps://, without repeating it (it may hold a password)', () => {
      const message = configError({ ...required, SMTP_URL: 'https://mailer:hunter22@smtp.example.com' }).message;
      expect(message).toContain('SMTP_URL must be an smtp:// or smtps:// URL');
      expect(message).not.toContain('hunter22');
    });

    it('refuses a MAIL_FROM without an address or with a line break', () => {
      expect(configError({ ...required, MAIL_FROM: 'Platform' }).message).toContain('MAIL_FROM must be an email');
      expect(configError({ ...required, MAIL_FROM: 'a@b.example\r\nBcc: x@y.example' }).message).toContain('MAIL_FROM');
    });
  });

  describe('manual review', () => {
    it('reads the platform organization, the document vault and the link secret', () => {
      const config = loadMainApiConfig(
        {
          ...required,
          PLATFORM_ORGANIZATION_ID: '5f0c4a9e-2b1d-4c3e-8f7a-6b5c4d3e2f1a',
          REVIEW_LINK_SECRET: 'r'.repeat(32),
          DOCUMENT_ENCRYPTION_KEY: DOCUMENT_KEY,
          DOCUMENT_STORAGE: 's3',
          DOCUMENT_S3_BUCKET: 'identity-documents',
          DOCUMENT_S3_ENDPOINT: 'https://minio.internal:9000',
        },
        '/srv/app',
      );
      expect(config).toMatchObject({
        platformOrganizationId: '5f0c4a9e-2b1d-4c3e-8f7a-6b5c4d3e2f1a',
        reviewLinkSecret: 'r'.repeat(32),
        documents: {
          keyring: { current: { id: 'k1' } },
          storage: {
            kind: 's3',
            bucket: 'identity-documents',
            region: 'us-east-1',
            endpoint: 'https://minio.internal:9000',
          },
        },
      });
    });

    it('names a bad platform organization, link secret or document setting, never a key', () => {
      const malformed = configError({ ...required, PLATFORM_ORGANIZATION_ID: 'platform', REVIEW_LINK_SECRET: 'short' });
      expect(malformed.problems.map(({ name }) => name).sort()).toEqual([
        'PLATFORM_ORGANIZATION_ID',
        'REVIEW_LINK_SECRET',
      ]);
      expect(malformed.message).not.toContain('short');
      const secret = 'c2hvcnQta2V5';
      const documents = configError({ ...required, DOCUMENT_ENCRYPTION_KEY: `k1:${secret}`, DOCUMENT_STORAGE: 's3' });
      expect(documents.problems.map(({ name }) => name)).toEqual(['DOCUMENT_ENCRYPTION_KEY', 'DOCUMENT_S3_BUCKET']);
      expect(documents.message).not.toContain(secret);
    });
  });

  it('names every bad variable at once', () => {
    const message = configError({ PORT: '-1', LOG_LEVEL: 'loud' }).message;
    for (const name of ['PORT', 'LOG_LEVEL', 'AUTH_ISSUER', 'AUTH_AUDIENCE']) expect(message).toContain(name);
  });
});
