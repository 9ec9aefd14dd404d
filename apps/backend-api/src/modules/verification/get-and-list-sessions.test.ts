import { describe, expect, it } from 'vitest';
import { sessionsApiSuite } from '../../../test/sessions-api-suite.js';
import { createdSessionId, fundWallet } from '../../../test/verification-fixtures.js';

const { suite, clock, create, get, list, cancel, acme, globex } = sessionsApiSuite();

describe('GET /v1/verify/sessions/:id', () => {
  it('shows the session with its required documents', async () => {
    const created = (await create(acme.liveKey, { type: 'kyb', externalEndUserId: 'company-1' })).json().data;
    const response = await get(acme.liveKey, created.sessionId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: { ...created, checks: [] } });
  });

  it("answers 404 for unknown ids and for other organizations' and environments' sessions alike", async () => {
    const id = await createdSessionId(suite.app, acme.liveKey);
    const unknown = await get(acme.liveKey, crypto.randomUUID());
    const otherOrganization = await get(globex.liveKey, id);
    const otherEnvironment = await get(acme.testKey, id);
    for (const response of [unknown, otherOrganization, otherEnvironment]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        success: false,
        code: 'not_found',
        error: 'Verification session not found',
      });
    }
    const sameOrganizationOtherKey = await get(acme.secondLiveKey, id);
    expect(sameOrganizationOtherKey.statusCode).toBe(200);
  });
});

describe('GET /v1/verify/sessions', () => {
  const createAt = async (key: string, body: object, minutesLater: number) => {
    clock.set(new Date(Date.parse('2026-03-02T09:00:00.000Z') + minutesLater * 60_000));
    return createdSessionId(suite.app, key, body);
  };

  it('pages newest first with a cursor until nextCursor is null', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1)
      ids.push(await createAt(acme.liveKey, { type: 'kyc', externalEndUserId: `user-${index}` }, index));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await list(acme.liveKey, `?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(response.statusCode).toBe(200);
      const { sessions, nextCursor } = response.json().data as {
        sessions: Array<{ sessionId: string }>;
        nextCursor: string | null;
      };
      seen.push(...sessions.map((session) => session.sessionId));
      cursor = nextCursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('defaults to 20 a page', async () => {
    await fundWallet(suite.db, acme.id, 'live', 10_000);
    for (let index = 0; index < 21; index += 1)
      await createdSessionId(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: `bulk-${index}` });
    const response = await list(acme.liveKey);
    expect(response.json().data.sessions).toHaveLength(20);
    expect(response.json().data.nextCursor).not.toBeNull();
  });

  it('filters by status and by externalEndUserId, and shows only its own organization and environment', async () => {
    const first = await createAt(acme.liveKey, { type: 'kyc', externalEndUserId: 'alice' }, 0);
    const second = await createAt(acme.liveKey, { type: 'kyb', externalEndUserId: 'alice' }, 1);
    const third = await createAt(acme.liveKey, { type: 'kyc', externalEndUserId: 'bob' }, 2);
    await createAt(acme.testKey, { type: 'kyc', externalEndUserId: 'alice' }, 3);
    await fundWallet(suite.db, globex.id, 'live', 100);
    await createAt(globex.liveKey, { type: 'kyc', externalEndUserId: 'alice' }, 4);
    expect((await cancel(acme.liveKey, second)).statusCode).toBe(200);

    const ids = async (query: string) =>
      ((await list(acme.liveKey, query)).json().data.sessions as Array<{ sessionId: string }>).map(
        (session) => session.sessionId,
      );
    expect(await ids('')).toEqual([third, second, first]);
    expect(await ids('?externalEndUserId=alice')).toEqual([second, first]);
    expect(await ids('?status=pending')).toEqual([third, first]);
    expect(await ids('?status=canceled&externalEndUserId=alice')).toEqual([second]);
    expect(await ids('?status=verified')).toEqual([]);
  });
});
