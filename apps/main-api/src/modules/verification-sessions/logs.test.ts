import { captureLogs, secretsIn } from '@platform/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { insertPendingSession } from '../../../test/verification-session-fixtures.js';

// A session id is its hosted page's credential: the session routes are logged by their pattern, and the list's
// cursor, which holds an id, never reaches a log line (docs/decisions.md#routes-whose-url-carries-a-secret).

const logs = captureLogs();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ deps: { logger: logs.logger } });
});
afterAll(async () => {
  await t?.close();
});

describe('the verification session routes in the logs', () => {
  it('name routes by their pattern: no session id, in the path or in a cursor', async () => {
    await insertUser(t.db, { id: 'user_session_logs' });
    const organizationId = await insertOrganization(t.db, { members: [{ userId: 'user_session_logs' }] });
    const first = await insertPendingSession(t.db, { organizationId, createdAt: new Date(Date.now() - 60_000) });
    const second = await insertPendingSession(t.db, { organizationId });
    const headers = { ...(await authHeader('user_session_logs')), 'x-organization-id': organizationId };
    const page = await t.app.inject({ method: 'GET', url: '/v1/verification-sessions?limit=1', headers });
    const { nextCursor } = page.json<{ data: { nextCursor: string } }>().data;
    const next = await t.app.inject({ method: 'GET', url: `/v1/verification-sessions?cursor=${nextCursor}`, headers });
    expect(next.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/v1/verification-sessions/${first}`, headers })).statusCode).toBe(
      200,
    );
    const canceled = await t.app.inject({ method: 'POST', url: `/v1/verification-sessions/${second}/cancel`, headers });
    expect(canceled.statusCode).toBe(200);

    expect(
      secretsIn(logs.text(), {
        'a session id (its hosted page credential)': first,
        'another session id': second,
        'a cursor holding a session id': nextCursor,
      }),
    ).toEqual([]);
    const logged = logs.lines
      .filter((line) => line['msg'] === 'request completed')
      .map((line) => `${String(line['method'])} ${String(line['url'])} ${String(line['statusCode'])}`);
    expect(logged).toEqual(
      expect.arrayContaining([
        'GET /v1/verification-sessions 200',
        'GET /v1/verification-sessions/:id 200',
        'POST /v1/verification-sessions/:id/cancel 200',
      ]),
    );
  });
});
