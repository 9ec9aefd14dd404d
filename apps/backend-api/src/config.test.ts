import { generateKeyPairSync } from 'node:crypto';
import { generateDocumentKeyEntry } from '@platform/document-vault';
import { ConfigError } from '@platform/http';
import { describe, expect, it } from 'vitest';
import { loadBackendApiConfig } from './config.js';

const external = { DATABASE_URL: 'postgres://platform@db.internal:5432/platform' };
const deployed = {
  ...external,
  VERIFY_URL: 'https://verify.example.com',
  HOSTED_PAGE_SECRET: 'h'.repeat(32),
  DOCUMENT_ENCRYPTION_KEY: generateDocumentKeyEntry('2026-01'),
};

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadBackendApiConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadBackendApiConfig', () => {
  it('runs on the embedded database without VERIFY_URL or HOSTED_PAGE_SECRET (one local process)', () => {
    const config = loadBackendApiConfig({});
    expect(config.verification.verifyUrl).toBeUndefined();
    expect(config.verification.hostedPageSecret).toBeUndefined();
    expect(config.databasePoolSize).toBe(10);
  });

  it('requires VERIFY_URL, HOSTED_PAGE_SECRET and DOCUMENT_ENCRYPTION_KEY on an external database, in one message', () => {
    const error = configError(external);
    expect(error.problems.map(({ name }) => name)).toEqual([
      'VERIFY_URL',
      'HOSTED_PAGE_SECRET',
      'DOCUMENT_ENCRYPTION_KEY',
    ]);
    expect(error.message).toMatch(
      /^Invalid configuration: VERIFY_URL is required when DATABASE_URL is set: .*; HOSTED_PAGE_SECRET is required when DATABASE_URL is set: /,
    );
    expect(error.message).toContain('http://localhost:3001/session/<id>');
    expect(error.message).not.toContain('\n');
  });

  it.each([
    ['VERIFY_URL', { VERIFY_URL: undefined }],
    ['HOSTED_PAGE_SECRET', { HOSTED_PAGE_SECRET: '' }],
    ['DOCUMENT_ENCRYPTION_KEY', { DOCUMENT_ENCRYPTION_KEY: undefined }],
  ])('refuses an external database without %s alone', (name, overrides) => {
    expect(configError({ ...deployed, ...overrides }).problems.map((problem) => problem.name)).toEqual([name]);
  });

  it('accepts an external database with both, and reads the pool size', () => {
    const config = loadBackendApiConfig({ ...deployed, DATABASE_POOL_SIZE: '6' });
    expect(config).toMatchObject({
      databaseUrl: deployed.DATABASE_URL,
      databasePoolSize: 6,
      verification: { verifyUrl: deployed.VERIFY_URL, hostedPageSecret: deployed.HOSTED_PAGE_SECRET },
    });
    expect(config.documents.keyring?.current.id).toBe('2026-01');
  });

  it.each([
    ['0', /DATABASE_POOL_SIZE must be an integer between 1 and 100 \(got "0"\)/],
    ['101', /DATABASE_POOL_SIZE must be an integer between 1 and 100 \(got "101"\)/],
    ['ten', /DATABASE_POOL_SIZE must be an integer between 1 and 100 \(got "ten"\)/],
  ])('refuses DATABASE_POOL_SIZE=%s', (value, message) => {
    expect(configError({ DATABASE_POOL_SIZE: value }).message).toMatch(message);
  });

  it('keeps verification documents 30 days after a final status unless VERIFICATION_RETENTION_DAYS says otherwise', () => {
    expect(loadBackendApiConfig({}).verification.retention).toEqual({ defaultDays: 30, minDays: 7, maxDays: 2555 });
    expect(loadBackendApiConfig({ VERIFICATION_RETENTION_DAYS: '90' }).verification.retention.defaultDays).toBe(90);
  });

  it("reads the bounds of an organization's own period, and refuses to start unless min <= default <= max", () => {
    const bounds = { VERIFICATION_RETENTION_MIN_DAYS: '14', VERIFICATION_RETENTION_MAX_DAYS: '365' };
    expect(loadBackendApiConfig(bounds).verification.retention).toEqual({ defaultDays: 30, minDays: 14, maxDays: 365 });
    for (const env of [
      { VERIFICATION_RETENTION_MIN_DAYS: '31' },
      { VERIFICATION_RETENTION_MAX_DAYS: '29' },
      { VERIFICATION_RETENTION_DAYS: '3000' },
    ]) {
      const error = configError(env);
      expect(error.problems.map(({ name }) => name)).toEqual(['VERIFICATION_RETENTION_DAYS']);
      expect(error.message).toContain('VERIFICATION_RETENTION_MIN_DAYS');
    }
  });

  it.each(['0', '3651', 'thirty', '7.5'])('refuses VERIFICATION_RETENTION_DAYS=%s', (value) => {
    const error = configError({ VERIFICATION_RETENTION_DAYS: value });
    expect(error.problems.map(({ name }) => name)).toEqual(['VERIFICATION_RETENTION_DAYS']);
    expect(error.message).toContain('VERIFICATION_RETENTION_DAYS must be an integer between 1 and 3650');
  });

  it('takes an Ed25519 PEM as VERIFICATION_EXPORT_SIGNING_KEY, and refuses anything else', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(loadBackendApiConfig({ VERIFICATION_EXPORT_SIGNING_KEY: pem }).verification.exportSigningKey?.trim()).toBe(
      pem.trim(),
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' });
    for (const value of ['not a key', rsa.toString()]) {
      const error = configError({ VERIFICATION_EXPORT_SIGNING_KEY: value });
      expect(error.problems.map(({ name }) => name)).toEqual(['VERIFICATION_EXPORT_SIGNING_KEY']);
      expect(error.message).not.toContain('PRIVATE KEY-----');
    }
  });

  it('runs the retention job hourly unless VERIFICATION_RETENTION_INTERVAL_MS says otherwise (0: not here)', () => {
    expect(loadBackendApiConfig({}).verification.retentionIntervalMs).toBe(3_600_000);
    expect(loadBackendApiConfig({ VERIFICATION_RETENTION_INTERVAL_MS: '0' }).verification.retentionIntervalMs).toBe(0);
  });

  it.each(['-1', 'hourly', '1.5'])('refuses VERIFICATION_RETENTION_INTERVAL_MS=%s', (value) => {
    const error = configError({ VERIFICATION_RETENTION_INTERVAL_MS: value });
    expect(error.problems.map(({ name }) => name)).toEqual(['VERIFICATION_RETENTION_INTERVAL_MS']);
  });

  it('reads VERIFICATION_DECISIONS over the defaults, and names it with the rule it refuses', () => {
    expect(loadBackendApiConfig({ VERIFICATION_DECISIONS: 'test:kyb=manual' }).verification.decisions).toEqual({
      test: { kyc: 'sandbox', kyb: 'manual' },
      live: { kyc: 'manual', kyb: 'manual' },
    });
    const error = configError({ VERIFICATION_DECISIONS: 'live:kyc=robot' });
    expect(error.problems.map(({ name }) => name)).toEqual(['VERIFICATION_DECISIONS']);
    expect(error.message).toBe(
      'Invalid configuration: VERIFICATION_DECISIONS: "live:kyc=robot": the source must be sandbox, manual or smile_id',
    );
  });

  it('takes smile_id for live kyc and manual for kyb, with Smile ID credentials only', () => {
    const smileId = { SMILE_ID_PARTNER_ID: '1234', SMILE_ID_API_KEY: 'a-smile-id-api-key' };
    const config = loadBackendApiConfig({ VERIFICATION_DECISIONS: 'live:kyc=smile_id,live:kyb=manual', ...smileId });
    expect(config.smileId.baseUrl).toBe('https://testapi.smileidentity.com/v1');
    expect(config.smileId.reconcileAfterMs).toBe(300_000);

    const missing = configError({ VERIFICATION_DECISIONS: 'live:kyc=smile_id' });
    expect(missing.problems.map(({ name }) => name)).toEqual(['SMILE_ID_PARTNER_ID', 'SMILE_ID_API_KEY']);
    expect(missing.message).toContain(
      'SMILE_ID_API_KEY is required when VERIFICATION_DECISIONS gives sessions to smile_id',
    );
    // Credentials without a smile_id rule are not needed, and not refused.
    expect(() => loadBackendApiConfig(smileId)).not.toThrow();
  });

  it('refuses a plain-http Smile ID unless private targets are allowed (a local fake)', () => {
    const env = {
      VERIFICATION_DECISIONS: 'live:kyc=smile_id',
      SMILE_ID_PARTNER_ID: '1234',
      SMILE_ID_API_KEY: 'a-smile-id-api-key',
      SMILE_ID_BASE_URL: 'http://127.0.0.1:4010/v1',
    };
    expect(configError(env).problems.map(({ name }) => name)).toEqual(['SMILE_ID_BASE_URL']);
    expect(() => loadBackendApiConfig({ ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).not.toThrow();
  });

  it('refuses sandbox decisions on live sessions without HOSTED_PAGE_LIVE_SANDBOX, also on an external database', () => {
    for (const env of [{}, deployed]) {
      const error = configError({ ...env, VERIFICATION_DECISIONS: 'live:*=sandbox' });
      expect(error.problems.map(({ name }) => name)).toEqual(['VERIFICATION_DECISIONS']);
      expect(error.message).toContain('"live:*=sandbox" needs HOSTED_PAGE_LIVE_SANDBOX=true');
    }
    expect(() =>
      loadBackendApiConfig({ VERIFICATION_DECISIONS: 'live:*=sandbox', HOSTED_PAGE_LIVE_SANDBOX: 'true' }),
    ).not.toThrow();
  });

  it('reports a bad VERIFICATION_DECISIONS together with the missing deployment settings', () => {
    const error = configError({ ...external, VERIFICATION_DECISIONS: 'live' });
    expect(error.problems.map(({ name }) => name)).toEqual([
      'VERIFICATION_DECISIONS',
      'VERIFY_URL',
      'HOSTED_PAGE_SECRET',
      'DOCUMENT_ENCRYPTION_KEY',
    ]);
  });

  it('names DOCUMENT_ENCRYPTION_KEY and the entry at fault, never the key', () => {
    const secret = 'c2hvcnQta2V5';
    const error = configError({ DOCUMENT_ENCRYPTION_KEY: `2026-01:${secret}` });
    expect(error.problems.map(({ name }) => name)).toEqual(['DOCUMENT_ENCRYPTION_KEY']);
    expect(error.message).toMatch(/^Invalid configuration: DOCUMENT_ENCRYPTION_KEY /);
    expect(error.message).not.toContain(secret);
  });

  it('reads the document storage: a local folder by default, or a bucket of its own', () => {
    expect(loadBackendApiConfig({}).documents.storage.kind).toBe('local');
    expect(configError({ DOCUMENT_STORAGE: 's3' }).problems.map(({ name }) => name)).toEqual(['DOCUMENT_S3_BUCKET']);
    expect(
      configError({
        DOCUMENT_STORAGE: 's3',
        DOCUMENT_S3_BUCKET: 'documents',
        DOCUMENT_S3_ACCESS_KEY_ID: 'id',
      }).problems.map(({ name }) => name),
    ).toEqual(['DOCUMENT_S3_ACCESS_KEY_ID']);
    expect(loadBackendApiConfig({ DOCUMENT_STORAGE: 's3', DOCUMENT_S3_BUCKET: 'documents' }).documents).toMatchObject({
      storage: { kind: 's3', bucket: 'documents', region: 'us-east-1' },
    });
  });
});
