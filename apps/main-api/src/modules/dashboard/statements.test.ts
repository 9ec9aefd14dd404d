import { createStatementLog, statementSummaryMarkingPrepared } from '@platform/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { insertPendingSession } from '../../../test/verification-session-fixtures.js';

// Every signed-in page starts with the page guard's reads; on the Verifications list they and the list are each one
// prepared statement (docs/benchmarks.md#the-verifications-page-get-dashboardverifications-3-dec).
describe.skipIf(missing(postgresServer))('statements per Verifications page (PostgreSQL)', () => {
  const log = createStatementLog();
  let h: DashboardHarness;
  let cookie: string;

  beforeAll(async () => {
    h = await startDashboardHarness({ statementLog: log });
    const owner = { sub: 'user_amani', email: 'amani@example.com', givenName: 'Amani', familyName: 'Mwangi' };
    cookie = await h.signIn(owner);
    const organizationId = await insertOrganization(h.t.db, {
      name: 'Amani Credit',
      members: [{ userId: owner.sub, role: 'owner' }],
    });
    await insertPendingSession(h.t.db, { organizationId, externalEndUserId: 'borrower-7' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('GET /dashboard/verifications: the session, the profile, the memberships, the unread count, then the list', async () => {
    await h.get('/dashboard/verifications', cookie);
    log.take();
    const page = await h.get('/dashboard/verifications', cookie);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('borrower-7');
    const sent = log.take().map(statementSummaryMarkingPrepared);
    expect(sent[0]).toBe('select dashboard_sessions (prepared)');
    // The guard's three reads go out together, in no order the page depends on.
    expect(sent.slice(1, 4).sort()).toEqual([
      'select memberships (prepared)',
      'select notifications (prepared)',
      'select users (prepared)',
    ]);
    expect(sent.slice(4)).toEqual(['select verification_sessions (prepared)']);
  });
});
