import type { DocumentVault } from '@platform/document-vault';
import { captureLogs, type LogCapture } from '@platform/http/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { BackendApp } from '../src/app.js';
import {
  buildTestApp,
  replaceOrganizations,
  type TestDatabase,
  type TestOrganization,
  testClock,
  useTestDatabase,
} from './app-fixtures.js';
import { pngImage, temporaryVault, uploadDocument } from './document-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from './verification-fixtures.js';

// Capture by API: documents uploaded, listed, submitted and erased through the API-key routes, on a vault over a
// temporary folder the tests look into. One app for a test file; Acme (both wallets funded) and Other laid anew
// before each test.

export const ID_NUMBER = '27183945';

export interface CaptureRoutesTestApp {
  readonly app: BackendApp;
  readonly vault: DocumentVault;
  /** The vault's folder. */
  readonly directory: string;
  readonly acme: TestOrganization;
  readonly other: TestOrganization;
  /** A 600x800 PNG with a name written on it. */
  readonly portrait: Buffer;
  database: TestDatabase;
  logs: LogCapture;
  clock: ReturnType<typeof testClock>;
  kycSession(): Promise<string>;
  kybSession(): Promise<string>;
  key(apiKey: string): Record<string, string>;
  submit(sessionId: string, payload: object, apiKey?: string): Promise<LightMyRequestResponse>;
  listDocuments(sessionId: string, apiKey?: string): Promise<LightMyRequestResponse>;
  erase(sessionId: string, apiKey?: string): Promise<LightMyRequestResponse>;
  cancel(sessionId: string): Promise<LightMyRequestResponse>;
  /** Uploads the front and back of an ID and a selfie, each answered 201. */
  uploadKycSet(sessionId: string): Promise<void>;
}

export function useCaptureRoutes(): CaptureRoutesTestApp {
  const logs = captureLogs();
  const database = useTestDatabase();
  const clock = testClock();
  let app: BackendApp | undefined;
  let vault: DocumentVault | undefined;
  let directory = '';
  let removeFolder: (() => Promise<void>) | undefined;
  let acme: TestOrganization | undefined;
  let other: TestOrganization | undefined;
  let portrait: Buffer | undefined;

  beforeAll(async () => {
    ({ vault, directory, remove: removeFolder } = await temporaryVault());
    app = await buildTestApp(database.handle, { now: clock.now, vault, logger: logs.logger });
    portrait = await pngImage(600, 800, 'WANJIRU KAMAU');
  });
  afterAll(async () => {
    await app?.close();
    await removeFolder?.();
  });
  beforeEach(async () => {
    await truncateVerificationData(database.db);
    [acme, other] = await replaceOrganizations(database.db, 'Acme', 'Other');
    await fundWallet(database.db, acme.id, 'live', 10_000);
    await fundWallet(database.db, acme.id, 'test', 10_000);
  });

  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is made in beforeAll or beforeEach`);
    return value;
  };
  const key = (apiKey: string) => ({ 'x-service-api-key': apiKey });

  const setup: CaptureRoutesTestApp = {
    get app() {
      return ready(app, 'the app');
    },
    get vault() {
      return ready(vault, 'the vault');
    },
    get directory() {
      return directory;
    },
    get acme() {
      return ready(acme, 'Acme');
    },
    get other() {
      return ready(other, 'Other');
    },
    get portrait() {
      return ready(portrait, 'the portrait');
    },
    database,
    logs,
    clock,
    kycSession: () => createdSessionId(setup.app, setup.acme.liveKey, { type: 'kyc', externalEndUserId: 'person-1' }),
    kybSession: () => createdSessionId(setup.app, setup.acme.liveKey, { type: 'kyb', externalEndUserId: 'company-1' }),
    key,
    submit: (sessionId, payload, apiKey = setup.acme.liveKey) =>
      setup.app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${sessionId}/submit`,
        headers: key(apiKey),
        payload,
      }),
    listDocuments: (sessionId, apiKey = setup.acme.liveKey) =>
      setup.app.inject({ method: 'GET', url: `/v1/verify/sessions/${sessionId}/documents`, headers: key(apiKey) }),
    erase: (sessionId, apiKey = setup.acme.liveKey) =>
      setup.app.inject({
        method: 'DELETE',
        url: `/v1/verify/sessions/${sessionId}/personal-data`,
        headers: key(apiKey),
      }),
    cancel: (sessionId) =>
      setup.app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${sessionId}/cancel`,
        headers: key(setup.acme.liveKey),
      }),
    async uploadKycSet(sessionId) {
      for (const kind of ['id_document_front', 'id_document_back', 'selfie']) {
        expect((await uploadDocument(setup.app, setup.acme.liveKey, sessionId, kind, setup.portrait)).statusCode).toBe(
          201,
        );
      }
    },
  };
  return setup;
}
