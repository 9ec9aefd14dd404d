import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization, insertUser } from '../../../test/helpers.js';
import { insertPendingSession } from '../../../test/verification-session-fixtures.js';
import { openSignedInCookie } from './signed-in-cookie.js';

// The bench's signed-in cookie (docs/benchmarks.md): the service opens it as a browser's after sign-in, on the
// organization and data it names, and answers without writing the cookie again.

let h: DashboardHarness;
let organizationId: string;
const USER = 'user_bench_cookie';

beforeAll(async () => {
  h = await startDashboardHarness();
  await insertUser(h.t.db, { id: USER, firstName: 'Bench', lastName: 'Owner' });
  organizationId = await insertOrganization(h.t.db, { name: 'Cookie Ltd', members: [{ userId: USER }] });
  await insertOrganization(h.t.db, { name: 'Newer Ltd', members: [{ userId: USER }] });
  await insertPendingSession(h.t.db, { organizationId, environment: 'live', externalEndUserId: 'live-borrower' });
  await insertPendingSession(h.t.db, { organizationId, externalEndUserId: 'test-borrower' });
});
afterAll(async () => {
  await h?.close();
});

const cookieFor = () =>
  openSignedInCookie({
    db: h.t.db,
    userId: USER,
    sessionSecret: h.t.config.dashboard.sessionSecret,
    publicUrl: h.t.config.publicUrl,
    organizationId,
    environment: 'live',
    now: new Date(),
  });

describe('a signed-in cookie for the bench', () => {
  it('opens the page of the organization and data it chose, and the page leaves it as it is', async () => {
    const cookie = await cookieFor();
    const page = await h.get('/dashboard/verifications', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Cookie Ltd');
    expect(page.body).toContain('live-borrower');
    expect(page.body).not.toContain('test-borrower');
    expect(cookieOf(page)).toBe('');
  });

  it('is refused once its session has ended, like any other', async () => {
    const cookie = await cookieFor();
    const signedOut = await h.post('/logout', cookie, {}, '/dashboard/verifications');
    expect(signedOut.statusCode).toBe(303);
    const after = await h.get('/dashboard/verifications', cookie);
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/login?notice=expired');
  });
});
