import { verificationConsents, verificationDocuments, verificationSessions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ID_NUMBER, useCaptureRoutes } from '../../../../test/capture-route-fixtures.js';
import { storedFiles } from '../../../../test/document-fixtures.js';
import { holdMovements } from '../../../../test/verification-fixtures.js';

const setup = useCaptureRoutes();
const { database, clock, kycSession, submit, listDocuments, erase, cancel, uploadKycSet } = setup;

describe('DELETE /v1/verify/sessions/:id/personal-data', () => {
  it('erases the files and details of a final session, keeps the session and its money, and can be repeated', async () => {
    const sessionId = await kycSession();
    await uploadKycSet(sessionId);
    expect((await cancel(sessionId)).statusCode).toBe(200);
    expect((await storedFiles(setup.directory)).filter((file) => file.path.includes(sessionId))).toHaveLength(3);

    const erased = await erase(sessionId);
    expect(erased.statusCode).toBe(200);
    expect(erased.json().data).toMatchObject({
      sessionId,
      status: 'canceled',
      personalDataErasedAt: clock.now().toISOString(),
    });
    expect((await storedFiles(setup.directory)).filter((file) => file.path.includes(sessionId))).toEqual([]);
    const rows = await database.db
      .select({ erasedAt: verificationDocuments.erasedAt })
      .from(verificationDocuments)
      .where(eq(verificationDocuments.sessionId, sessionId));
    expect(rows).toEqual([{ erasedAt: clock.now() }, { erasedAt: clock.now() }, { erasedAt: clock.now() }]);
    expect((await listDocuments(sessionId)).json().data.documents).toEqual([]);
    expect(await holdMovements(database.db, sessionId)).toEqual(['hold', 'release']);

    const firstErasure = clock.now().toISOString();
    clock.advance(60_000);
    const again = await erase(sessionId);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.personalDataErasedAt).toBe(firstErasure);
  });

  it('erases the sealed details of a decided session', async () => {
    const sessionId = await kycSession();
    await uploadKycSet(sessionId);
    await submit(sessionId, { idType: 'national_id', idNumber: ID_NUMBER });
    await database.db
      .update(verificationSessions)
      .set({ status: 'rejected' })
      .where(eq(verificationSessions.id, sessionId));
    expect((await erase(sessionId)).statusCode).toBe(200);
    const [row] = await database.db
      .select({ details: verificationSessions.submittedDetails, submittedAt: verificationSessions.submittedAt })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, sessionId));
    expect(row).toEqual({ details: null, submittedAt: clock.now() });
    expect((await storedFiles(setup.directory)).filter((file) => file.path.includes(sessionId))).toEqual([]);
  });

  it("removes the IP address and user agent from the session's consents, keeping when, which text and which language", async () => {
    const sessionId = await kycSession();
    const untouched = await kycSession();
    const agreedAt = clock.now();
    const consent = (id: string, textVersion: string, locale: 'en' | 'sw') => ({
      sessionId: id,
      textVersion,
      locale,
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
      createdAt: agreedAt,
    });
    // Agreed to an earlier text of the notice, then to the current one.
    await database.db
      .insert(verificationConsents)
      .values([
        consent(sessionId, 'consent-2025-01', 'sw'),
        consent(sessionId, 'consent-2026-11', 'en'),
        consent(untouched, 'consent-2026-11', 'en'),
      ]);
    await uploadKycSet(sessionId);
    expect((await cancel(sessionId)).statusCode).toBe(200);
    expect((await cancel(untouched)).statusCode).toBe(200);
    clock.advance(60_000);

    expect((await erase(sessionId)).statusCode).toBe(200);
    const consentsOf = (id: string) =>
      database.db
        .select({
          textVersion: verificationConsents.textVersion,
          locale: verificationConsents.locale,
          ip: verificationConsents.ip,
          userAgent: verificationConsents.userAgent,
          createdAt: verificationConsents.createdAt,
        })
        .from(verificationConsents)
        .where(eq(verificationConsents.sessionId, id))
        .orderBy(verificationConsents.textVersion);
    expect(await consentsOf(sessionId)).toEqual([
      { textVersion: 'consent-2025-01', locale: 'sw', ip: null, userAgent: null, createdAt: agreedAt },
      { textVersion: 'consent-2026-11', locale: 'en', ip: null, userAgent: null, createdAt: agreedAt },
    ]);
    // Another session's consent keeps its evidence until that session is erased.
    const { sessionId: _, ...kept } = consent(untouched, 'consent-2026-11', 'en');
    expect(await consentsOf(untouched)).toEqual([kept]);
  });

  it('refuses an open session: pending and processing (409)', async () => {
    const sessionId = await kycSession();
    const pending = await erase(sessionId);
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error).toContain('cancel it first');
    await uploadKycSet(sessionId);
    await submit(sessionId, { idType: 'national_id', idNumber: ID_NUMBER });
    const processing = await erase(sessionId);
    expect(processing.statusCode).toBe(409);
    expect((await storedFiles(setup.directory)).filter((file) => file.path.includes(sessionId))).toHaveLength(3);
  });
});
