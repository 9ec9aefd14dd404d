import { createHash, createPublicKey, verify } from 'node:crypto';
import { unitOfWork } from '@platform/db';
import { apiKeys, auditEvents } from '@platform/db/schema';
import { type DocumentVault, parseDocumentKeyring } from '@platform/document-vault';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  replaceOrganizations,
  TEST_START,
  type TestOrganization,
  testClock,
  useTestDatabase,
} from '../../../../test/app-fixtures.js';
import { pngImage, temporaryVault } from '../../../../test/document-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';
import { API_KEY_HEADER } from '../../../plugins/api-key-authentication.js';
import { captureDocument, erasePersonalData, sessionTakingDocuments, submitSession } from '../documents/index.js';
import { moveSession } from '../index.js';
import { exportSigningKeysOf, type PublicJwk, publicJwkOf } from './signing-keys.js';

// Export before erasure (docs/decisions.md#verification-export): the signed ZIP of a final session, verified the
// way a business would, with the published JWKS.

const database = useTestDatabase();
const clock = testClock();
let app: BackendApp;
let vault: DocumentVault;
let removeFolder: () => Promise<void>;
let acme: TestOrganization;
let globex: TestOrganization;
let image: Buffer;

beforeAll(async () => {
  ({ vault, remove: removeFolder } = await temporaryVault());
  app = await buildTestApp(database.handle, { now: clock.now, vault });
  image = await pngImage();
});
afterAll(async () => {
  await app?.close();
  await removeFolder?.();
});
beforeEach(async () => {
  clock.set(TEST_START);
  await truncateVerificationData(database.db);
  [acme, globex] = await replaceOrganizations(database.db, 'Acme', 'Globex');
  await fundWallet(database.db, acme.id, 'test', 10_000);
  for (const organization of [acme, globex]) {
    await database.db
      .update(apiKeys)
      .set({ permissions: ['verified_data:read'] })
      .where(eq(apiKeys.organizationId, organization.id));
  }
});

/** A kyc session of Acme's test environment with a passport and a selfie, submitted, then moved to `to`. */
async function sessionMovedTo(to: 'processing' | 'verified' | 'rejected'): Promise<string> {
  const sessionId = await createdSessionId(app, acme.testKey);
  const db = database.db;
  const now = clock.now();
  const session = await sessionTakingDocuments(db, { sessionId });
  for (const kind of ['id_document_front', 'selfie'])
    await captureDocument(db, vault, { session, kind, bytes: image, now });
  const input = { idType: 'passport', idNumber: 'AK1234567' };
  await db.transaction((tx) => submitSession(tx, vault, { sessionId, input, actor: 'hosted_page', now }, {}));
  if (to !== 'processing') {
    await unitOfWork(db, (work) => moveSession(work, { sessionId, to, actor: 'reviewer:ann', now }, {}));
  }
  return sessionId;
}

const exportOf = (sessionId: string, key = acme.testKey) =>
  app.inject({ method: 'GET', url: `/v1/verify/sessions/${sessionId}/export`, headers: { [API_KEY_HEADER]: key } });

async function publishedKeys(): Promise<PublicJwk[]> {
  const response = await app.inject({ method: 'GET', url: '/v1/verify/export-keys' });
  expect(response.statusCode).toBe(200);
  return response.json().keys as PublicJwk[];
}

function verifies(manifest: Uint8Array, signature: Uint8Array, jwk: PublicJwk): boolean {
  const { kid: _kid, alg: _alg, use: _use, ...key } = jwk;
  return verify(null, manifest, createPublicKey({ key, format: 'jwk' }), signature);
}

describe('GET /v1/verify/sessions/:id/export', () => {
  it('answers a ZIP whose manifest lists every file with its hash, signed by a published key', async () => {
    const sessionId = await sessionMovedTo('verified');
    const response = await exportOf(sessionId);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="verification-${sessionId}.zip"`);
    expect(response.headers['cache-control']).toBe('no-store');

    const files = unzipSync(new Uint8Array(response.rawPayload));
    const names = Object.keys(files).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        'checks.json',
        'consent.json',
        'details.json',
        'history.json',
        'manifest.json',
        'manifest.sig',
      ]),
    );
    expect(names.filter((name) => name.startsWith('documents/'))).toHaveLength(2);
    const manifestBytes = files['manifest.json'] as Uint8Array;
    const manifest = JSON.parse(Buffer.from(manifestBytes).toString('utf8'));
    expect(manifest.session).toMatchObject({
      id: sessionId,
      organizationId: acme.id,
      type: 'kyc',
      environment: 'test',
      status: 'verified',
      externalEndUserId: 'end-user-1',
    });
    expect(manifest.decision).toMatchObject({ status: 'verified', by: 'reviewer:ann' });
    expect(manifest.exportedAt).toBe(TEST_START.toISOString());
    for (const listed of manifest.files as Array<{ name: string; sha256: string; size: number }>) {
      const bytes = files[listed.name] as Uint8Array;
      expect(bytes.byteLength).toBe(listed.size);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(listed.sha256);
    }
    expect(manifest.files.map((file: { name: string }) => file.name).sort()).toEqual(
      names.filter((name) => !name.startsWith('manifest.')).sort(),
    );
    expect(JSON.parse(Buffer.from(files['details.json'] as Uint8Array).toString())).toMatchObject({
      idNumber: 'AK1234567',
    });

    const [current] = await publishedKeys();
    expect(current?.kid).toBe(manifest.signature.keyId);
    const signature = files['manifest.sig'] as Uint8Array;
    expect(verifies(manifestBytes, signature, current as PublicJwk)).toBe(true);
    const changed = Buffer.from(manifestBytes);
    changed[10] = (changed[10] ?? 0) ^ 1;
    expect(verifies(changed, signature, current as PublicJwk)).toBe(false);

    const [recorded] = await database.db.select().from(auditEvents).where(eq(auditEvents.targetId, sessionId));
    expect(recorded).toMatchObject({
      organizationId: acme.id,
      action: 'verification.exported',
      details: { sessionId, keyId: current?.kid },
    });
  });

  it('answers 409 for a session still processing and for one whose personal data was erased', async () => {
    const processing = await sessionMovedTo('processing');
    expect((await exportOf(processing)).statusCode).toBe(409);
    const rejected = await sessionMovedTo('rejected');
    await erasePersonalData(database.db, vault, { sessionId: rejected, now: clock.now() });
    const erased = await exportOf(rejected);
    expect(erased.statusCode).toBe(409);
    expect(erased.json().error).toContain('erased');
  });

  it("answers 404 for another organization's session and 403 for a key without verified_data:read", async () => {
    const sessionId = await sessionMovedTo('verified');
    expect((await exportOf(sessionId, globex.testKey)).statusCode).toBe(404);
    expect((await exportOf(sessionId, acme.liveKey)).statusCode).toBe(404);
    await database.db.update(apiKeys).set({ permissions: [] }).where(eq(apiKeys.organizationId, acme.id));
    const refused = await exportOf(sessionId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toContain('verified_data:read');
    expect(await database.db.select().from(auditEvents).where(eq(auditEvents.targetId, sessionId))).toEqual([]);
  });
});

describe('the export signing keys', () => {
  it('publishes a JWKS whose kid is the RFC 7638 thumbprint, the same for every instance of one vault key', async () => {
    const [key] = await publishedKeys();
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    const keyring = parseDocumentKeyring(`k1:${Buffer.alloc(32, 7).toString('base64')}`);
    const one = exportSigningKeysOf({ keyring });
    const other = exportSigningKeysOf({ keyring });
    expect(one.current.kid).toBe(other.current.kid);
    expect(publicJwkOf(one.current.privateKey)).toEqual(one.jwks.keys[0]);
  });
});
