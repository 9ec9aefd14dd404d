import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type DocumentConfigProblem,
  type DocumentVaultEnv,
  documentVaultConfigFrom,
  documentVaultFromConfig,
} from './config.js';
import { generateDocumentKeyEntry } from './keyring.js';

// The DOCUMENT_* settings as both services read them: one set of rules, one vault.

const local: DocumentVaultEnv = { DOCUMENT_STORAGE: 'local', DOCUMENT_S3_REGION: 'us-east-1' };

function read(env: Partial<DocumentVaultEnv>, deployed = false) {
  const problems: DocumentConfigProblem[] = [];
  const config = documentVaultConfigFrom({ ...local, ...env }, problems, { deployed, cwd: '/srv/app' });
  return { config, problems: problems.map(({ name }) => name), messages: problems.map(({ message }) => message) };
}

describe('documentVaultConfigFrom', () => {
  it('keeps documents in .data/documents under the working folder by default, without a key off a deployment', () => {
    expect(read({})).toEqual({
      config: { keyring: undefined, storage: { kind: 'local', directory: path.resolve('/srv/app/.data/documents') } },
      problems: [],
      messages: [],
    });
    expect(read({ DOCUMENT_LOCAL_DIR: 'docs' }).config?.storage).toEqual({
      kind: 'local',
      directory: path.resolve('/srv/app/docs'),
    });
  });

  it('reads the bucket settings and the keyring', () => {
    const { config } = read({
      DOCUMENT_ENCRYPTION_KEY: generateDocumentKeyEntry('2026-01'),
      DOCUMENT_STORAGE: 's3',
      DOCUMENT_S3_BUCKET: 'documents',
      DOCUMENT_S3_ENDPOINT: 'https://minio.internal',
      DOCUMENT_S3_ACCESS_KEY_ID: 'id',
      DOCUMENT_S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config?.keyring?.current.id).toBe('2026-01');
    expect(config?.storage).toEqual({
      kind: 's3',
      bucket: 'documents',
      region: 'us-east-1',
      endpoint: 'https://minio.internal',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
  });

  it('names every problem, and never a key', () => {
    const secret = 'c2hvcnQta2V5';
    const result = read({
      DOCUMENT_ENCRYPTION_KEY: `k1:${secret}`,
      DOCUMENT_STORAGE: 's3',
      DOCUMENT_S3_ACCESS_KEY_ID: 'id',
    });
    expect(result.config).toBeUndefined();
    expect(result.problems).toEqual(['DOCUMENT_ENCRYPTION_KEY', 'DOCUMENT_S3_ACCESS_KEY_ID', 'DOCUMENT_S3_BUCKET']);
    expect(result.messages.join(' ')).not.toContain(secret);
  });

  it("requires the key on a deployment, where instances must read each other's documents", () => {
    const result = read({}, true);
    expect(result.problems).toEqual(['DOCUMENT_ENCRYPTION_KEY']);
    expect(result.messages[0]).toMatch(/^DOCUMENT_ENCRYPTION_KEY is required when DATABASE_URL is set/);
    expect(read({ DOCUMENT_ENCRYPTION_KEY: generateDocumentKeyEntry('k') }, true).problems).toEqual([]);
  });
});

describe('documentVaultFromConfig', () => {
  it("builds vaults that read each other's documents from the same settings", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'document-vault-config-'));
    try {
      const { config } = read({
        DOCUMENT_ENCRYPTION_KEY: generateDocumentKeyEntry('k'),
        DOCUMENT_LOCAL_DIR: directory,
      });
      if (config === undefined) throw new Error('no config');
      const warnings: string[] = [];
      const writer = documentVaultFromConfig(config, { warn: (message) => warnings.push(message) });
      const reader = documentVaultFromConfig(config, { warn: (message) => warnings.push(message) });
      await writer.store({ key: 'kyc/s1/d1', bytes: Buffer.from('document'), contentType: 'image/png' });
      expect((await reader.read('kyc/s1/d1'))?.bytes.toString()).toBe('document');
      expect(warnings).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('makes a key for the process without one, says so, and that key reads nothing another process stored', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'document-vault-config-'));
    try {
      const { config } = read({ DOCUMENT_LOCAL_DIR: directory });
      if (config === undefined) throw new Error('no config');
      const warnings: string[] = [];
      const first = documentVaultFromConfig(config, { warn: (message) => warnings.push(message) });
      const second = documentVaultFromConfig(config, { warn: (message) => warnings.push(message) });
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(/^DOCUMENT_ENCRYPTION_KEY is not set/);
      await first.store({ key: 'kyc/s1/d1', bytes: Buffer.from('document'), contentType: 'image/png' });
      await expect(second.read('kyc/s1/d1')).rejects.toMatchObject({ name: 'DocumentVaultError' });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
