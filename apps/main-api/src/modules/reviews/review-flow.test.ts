import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiKey } from '@platform/api-keys';
import { buildApp as buildBackendApp, loadBackendApiConfig } from '@platform/backend-api';
import { users, wallets } from '@platform/db/schema';
import { generateDocumentKeyEntry } from '@platform/document-vault';
import { topUpWallet } from '@platform/ledger';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { greyPng, multipart } from '../../../test/images.js';

// The whole path, with both services on one database and each building its document vault from the same DOCUMENT_*
// settings, as the local start and a deployment give them: a platform user's live kyc session is captured and
// submitted through backend-api, sent back for a better selfie by a reviewer on main-api, submitted again, and
// verified; the user's kycStatus and the wallet follow.

const REVIEWER = 'user_flow_reviewer';
const APPLICANT = 'user_flow_applicant';
const PLATFORM_ORGANIZATION_ID = randomUUID();

let main: TestApp;
let backend: ReturnType<typeof buildBackendApp>;
let documentDir: string;
let apiKey: string;

beforeAll(async () => {
  documentDir = await mkdtemp(path.join(tmpdir(), 'review-flow-documents-'));
  const shared = {
    PLATFORM_ORGANIZATION_ID,
    DOCUMENT_ENCRYPTION_KEY: generateDocumentKeyEntry('flow'),
    DOCUMENT_STORAGE: 'local',
    DOCUMENT_LOCAL_DIR: documentDir,
  };
  main = await createTestApp({ env: shared });
  backend = buildBackendApp(
    { database: main.database },
    loadBackendApiConfig({
      ...shared,
      LOG_LEVEL: 'silent',
      IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
      VERIFICATION_EXPIRY_INTERVAL_MS: '0',
      VERIFICATION_RETENTION_INTERVAL_MS: '0',
      WEBHOOK_DELIVERY_ENABLED: 'false',
    }),
  );
  await backend.ready();
  await insertUser(main.db, { id: REVIEWER });
  await insertUser(main.db, { id: APPLICANT, kycStatus: 'unverified' });
  await insertOrganization(main.db, {
    id: PLATFORM_ORGANIZATION_ID,
    name: 'The platform',
    members: [{ userId: REVIEWER, role: 'reviewer' }],
  });
  apiKey = (
    await createApiKey(main.db, {
      organizationId: PLATFORM_ORGANIZATION_ID,
      environment: 'live',
      permissions: ['verified_data:read'],
    })
  ).secret;
  await main.db.transaction((tx) =>
    topUpWallet(
      tx,
      { organizationId: PLATFORM_ORGANIZATION_ID, environment: 'live' },
      { amount: 1_000, reference: 'review-flow-funding' },
    ),
  );
});
afterAll(async () => {
  await backend?.close();
  await main?.close();
  if (documentDir !== undefined) await rm(documentDir, { recursive: true, force: true });
});

const backendCall = (method: 'GET' | 'POST', url: string, payload?: object) =>
  backend.inject({
    method,
    url,
    headers: { 'x-service-api-key': apiKey },
    ...(payload === undefined ? {} : { payload }),
  });

async function upload(sessionId: string, kind: string, width: number) {
  const { payload, headers } = multipart([
    { field: 'kind', data: Buffer.from(kind) },
    { field: 'file', filename: `${kind}.png`, contentType: 'image/png', data: greyPng(width, 800) },
  ]);
  const response = await backend.inject({
    method: 'POST',
    url: `/v1/verify/sessions/${sessionId}/documents`,
    headers: { 'x-service-api-key': apiKey, ...headers },
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
}

const reviewer = async () => authHeader(REVIEWER);

async function heldBalance(): Promise<number> {
  const [wallet] = await main.db
    .select({ held: wallets.heldBalance })
    .from(wallets)
    .where(and(eq(wallets.organizationId, PLATFORM_ORGANIZATION_ID), eq(wallets.environment, 'live')));
  return wallet?.held ?? -1;
}

describe("a live kyc session from capture to a reviewer's decision", () => {
  it('is reviewed on main-api from what backend-api stored, sent back once, then verified', async () => {
    const created = await backendCall('POST', '/v1/verify/sessions', { type: 'kyc', externalEndUserId: APPLICANT });
    expect(created.statusCode, created.body).toBe(201);
    const { sessionId } = created.json<{ data: { sessionId: string } }>().data;
    for (const kind of ['id_document_front', 'id_document_back', 'selfie']) await upload(sessionId, kind, 600);
    const submitted = await backendCall('POST', `/v1/verify/sessions/${sessionId}/submit`, {
      idType: 'national_id',
      idNumber: '12345678',
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(await heldBalance()).toBe(50);

    const queue = await main.app.inject({ method: 'GET', url: '/v1/reviews', headers: await reviewer() });
    expect(queue.json<{ data: { reviews: Array<{ sessionId: string }> } }>().data.reviews).toEqual([
      expect.objectContaining({ sessionId, type: 'kyc', environment: 'live' }),
    ]);

    const detail = await main.app.inject({ method: 'GET', url: `/v1/reviews/${sessionId}`, headers: await reviewer() });
    expect(detail.statusCode, detail.body).toBe(200);
    const data = detail.json<{
      data: { details: unknown; documents: Array<{ kind: string; url: string; contentType: string }> };
    }>().data;
    // Sealed by backend-api, opened by main-api: the same key from the same settings.
    expect(data.details).toEqual({ type: 'kyc', idType: 'national_id', idNumber: '12345678' });
    expect(data.documents.map((document) => document.kind).sort()).toEqual([
      'id_document_back',
      'id_document_front',
      'selfie',
    ]);
    const selfie = data.documents.find((document) => document.kind === 'selfie');
    const shown = await main.app.inject({ method: 'GET', url: selfie?.url.replace(main.config.publicUrl, '') ?? '' });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');
    expect(shown.rawPayload.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');

    const sentBack = await main.app.inject({
      method: 'POST',
      url: `/v1/reviews/${sessionId}/decision`,
      headers: await reviewer(),
      payload: { decision: 'requires_input', reason: 'Please take the selfie in better light', documents: ['selfie'] },
    });
    expect(sentBack.statusCode, sentBack.body).toBe(200);
    const waiting = await backendCall('GET', `/v1/verify/sessions/${sessionId}`);
    expect(waiting.json()).toMatchObject({
      data: { status: 'requires_input', lastError: 'Please take the selfie in better light' },
    });

    await upload(sessionId, 'selfie', 640);
    const again = await backendCall('POST', `/v1/verify/sessions/${sessionId}/submit`, {
      idType: 'national_id',
      idNumber: '12345678',
    });
    expect(again.statusCode, again.body).toBe(200);
    // The new selfie replaced the old one: the reviewer sees three documents again.
    const second = await main.app.inject({ method: 'GET', url: `/v1/reviews/${sessionId}`, headers: await reviewer() });
    expect(second.json<{ data: { documents: unknown[] } }>().data.documents).toHaveLength(3);

    const verified = await main.app.inject({
      method: 'POST',
      url: `/v1/reviews/${sessionId}/decision`,
      headers: await reviewer(),
      payload: { decision: 'verified' },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await backendCall('GET', `/v1/verify/sessions/${sessionId}`)).json()).toMatchObject({
      data: { status: 'verified' },
    });
    // The reviewer's approval verified what was stated, as any other decision source would have.
    const outputs = await backendCall('GET', `/v1/verify/sessions/${sessionId}?expand=verified_outputs`);
    expect(outputs.statusCode, outputs.body).toBe(200);
    expect(outputs.json()).toMatchObject({
      data: {
        verifiedOutputs: {
          type: 'kyc',
          person: { idType: 'national_id', idNumber: '12345678', nationality: 'KEN', firstName: null },
        },
      },
    });
    const [applicant] = await main.db.select({ kycStatus: users.kycStatus }).from(users).where(eq(users.id, APPLICANT));
    expect(applicant?.kycStatus).toBe('verified');
    expect(await heldBalance()).toBe(0);
  });
});
