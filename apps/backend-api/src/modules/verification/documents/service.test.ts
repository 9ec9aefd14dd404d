import type { DocumentVault } from '@platform/document-vault';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, replaceOrganizations, testClock, useTestDatabase } from '../../../../test/app-fixtures.js';
import { pngImage, storedFiles, temporaryVault } from '../../../../test/document-fixtures.js';
import { createdSessionId, fundWallet } from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';
import {
  captureDocument,
  erasePersonalData,
  listDocuments,
  type SessionRef,
  sessionTakingDocuments,
  submitSession,
} from './index.js';

// The capture path as the hosted page uses it: the same functions as the API's routes, without an owner (the
// session id in the page's URL is the credential).

const database = useTestDatabase();
const clock = testClock();
let app: BackendApp;
let vault: DocumentVault;
let directory: string;
let removeFolder: () => Promise<void>;

beforeAll(async () => {
  ({ vault, directory, remove: removeFolder } = await temporaryVault());
  app = await buildTestApp(database.handle, { now: clock.now, vault });
});
afterAll(async () => {
  await app?.close();
  await removeFolder?.();
});

describe('capture without an owner (the hosted page)', () => {
  it('takes documents, submits and erases a session by its id alone, through the same rules', async () => {
    const [acme] = await replaceOrganizations(database.db, 'Acme');
    await fundWallet(database.db, acme.id, 'test', 1_000);
    const sessionId = await createdSessionId(app, acme.testKey);
    const ref: SessionRef = { sessionId };
    const db = database.db;
    const now = clock.now();

    const session = await sessionTakingDocuments(db, ref);
    const image = await pngImage();
    for (const kind of ['id_document_front', 'selfie']) {
      await captureDocument(db, vault, { session, kind, bytes: image, now });
    }
    expect((await listDocuments(db, ref)).map((document) => document.kind)).toEqual(['id_document_front', 'selfie']);
    await expect(
      db.transaction((tx) =>
        submitSession(tx, vault, { ...ref, input: { idType: 'national_id' }, actor: 'hosted_page', now }, {}),
      ),
    ).rejects.toMatchObject({
      code: 'validation_error',
      details: [
        { path: '/idNumber', message: 'is required' },
        { path: '/documents/id_document_back', message: 'is required: upload it first' },
      ],
    });
    const submitted = await db.transaction((tx) =>
      submitSession(
        tx,
        vault,
        { ...ref, input: { idType: 'passport', idNumber: 'AK1234567' }, actor: 'hosted_page', now },
        {},
      ),
    );
    expect(submitted.session).toMatchObject({ status: 'processing', submittedAt: now });
    await expect(sessionTakingDocuments(db, ref)).rejects.toMatchObject({ code: 'conflict' });
    await expect(erasePersonalData(db, vault, { ...ref, now })).rejects.toMatchObject({ code: 'conflict' });
    await expect(
      sessionTakingDocuments(db, { sessionId: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect((await storedFiles(directory)).filter((file) => file.path.includes(sessionId))).toHaveLength(2);
  });
});
