import { verificationSessionTransitions } from '@platform/db/schema';
import { describe, expect, it } from 'vitest';
import { sessionsApiSuite } from '../../../test/sessions-api-suite.js';
import { createdSessionId, eventTypesOf, holdMovements, walletState } from '../../../test/verification-fixtures.js';

const HOUR = 60 * 60 * 1000;

const { suite, clock, get, cancel, acme, globex } = sessionsApiSuite();

describe('POST /v1/verify/sessions/:id/cancel', () => {
  it('cancels a pending session and releases its hold', async () => {
    const id = await createdSessionId(suite.app, acme.liveKey);
    clock.advance(HOUR);
    const response = await cancel(acme.liveKey, id, 'cancel-1');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Verification session canceled',
      data: {
        sessionId: id,
        status: 'canceled',
        completedAt: '2026-03-02T10:00:00.000Z',
        updatedAt: '2026-03-02T10:00:00.000Z',
      },
    });
    expect(await walletState(suite.db, acme.id, 'live')).toEqual({
      available: 1_000,
      held: 0,
      ledger: { available: 1_000, held: 0 },
    });
    expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
    expect(await eventTypesOf(suite.db, id)).toEqual(['verification_session.created', 'verification_session.canceled']);

    const replay = await cancel(acme.liveKey, id, 'cancel-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(response.body);
  });

  it('refuses a second cancel (new key) with 409 and releases nothing more', async () => {
    const id = await createdSessionId(suite.app, acme.liveKey);
    expect((await cancel(acme.liveKey, id, 'first')).statusCode).toBe(200);
    const again = await cancel(acme.liveKey, id, 'second');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'conflict',
      error: 'Cannot move a verification session from canceled to canceled',
    });
    expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
  });

  it("answers 404 for another organization's session and leaves it alone", async () => {
    const id = await createdSessionId(suite.app, acme.liveKey);
    expect((await cancel(globex.liveKey, id)).statusCode).toBe(404);
    expect((await cancel(acme.testKey, id)).statusCode).toBe(404);
    expect((await get(acme.liveKey, id)).json().data.status).toBe('pending');
    expect(await suite.db.$count(verificationSessionTransitions)).toBe(1);
  });
});
