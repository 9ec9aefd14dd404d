import { disabledWebhookTargets } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliverySuite } from '../test/delivery-suite.js';
import { insertOrganization } from '../test/fixtures.js';
import { startReceiver } from '../test/receiver.js';
import { JITTER, RETRY_SCHEDULE_MS } from './retry-schedule.js';

const suite = deliverySuite();
const { enqueue, worker, eventRow, attemptsOf } = suite;

describe('retries', () => {
  it('retries on the schedule with jitter, counts the tries, and gives up after the tenth', async () => {
    suite.receiver.respond = () => ({ status: 500 });
    let clock = new Date('2024-06-15T12:00:00.000Z');
    const delivery = worker({ now: () => clock });
    const { id } = await enqueue({ now: clock });

    for (let attempt = 1; attempt <= RETRY_SCHEDULE_MS.length; attempt++) {
      if (attempt > 1) {
        // Not a moment early.
        const due = (await eventRow(id)).nextAttemptAt;
        clock = new Date(due.getTime() - 1);
        expect((await delivery.runOnce()).claimed).toBe(0);
        clock = due;
      }
      const summary = await delivery.runOnce();
      const row = await eventRow(id);
      expect(row.attempts).toBe(attempt);
      expect(row.lastResponseStatus).toBe(500);
      if (attempt < RETRY_SCHEDULE_MS.length) {
        expect(summary).toEqual({ claimed: 1, delivered: 0, retrying: 1, failed: 0 });
        expect(row.status).toBe('pending');
        expect(row.lastError).toBe(`Try ${attempt}: HTTP 500`);
        const delay = row.nextAttemptAt.getTime() - clock.getTime();
        const planned = RETRY_SCHEDULE_MS[attempt]!;
        expect(delay).toBeGreaterThanOrEqual(Math.floor(planned * (1 - JITTER)));
        expect(delay).toBeLessThanOrEqual(Math.ceil(planned * (1 + JITTER)));
      } else {
        expect(summary).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 1 });
        expect(row.status).toBe('failed');
        expect(row.lastError).toBe('Try 10: HTTP 500; gave up after 10 tries');
      }
    }

    expect((await attemptsOf(id)).map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(suite.receiver.requests).toHaveLength(10);
    // Every try carries the same id and body, so the receiver can dedupe.
    expect(new Set(suite.receiver.requests.map((request) => request.headers['webhook-id']))).toEqual(new Set([id]));
    expect(new Set(suite.receiver.requests.map((request) => request.body)).size).toBe(1);
    clock = new Date(clock.getTime() + 7 * 24 * 3_600_000);
    expect((await delivery.runOnce()).claimed).toBe(0);
  });

  it('uses the injected random for the jitter', async () => {
    suite.receiver.respond = () => ({ status: 503 });
    const clock = new Date('2024-06-15T12:00:00.000Z');
    const { id } = await enqueue({ now: clock });
    await worker({ now: () => clock, random: () => 0 }).runOnce();
    expect((await eventRow(id)).nextAttemptAt.getTime() - clock.getTime()).toBe(4_500);
  });

  it('delivers on a later try once the receiver recovers', async () => {
    let clock = new Date('2024-06-15T12:00:00.000Z');
    const delivery = worker({ now: () => clock });
    suite.receiver.respond = () => ({ status: 502 });
    const { id } = await enqueue({ now: clock });
    await delivery.runOnce();
    suite.receiver.respond = () => ({ status: 200 });
    clock = (await eventRow(id)).nextAttemptAt;
    expect((await delivery.runOnce()).delivered).toBe(1);
    expect(await eventRow(id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      lastError: null,
      lastResponseStatus: 200,
    });
  });

  it('retries when the receiver cannot be reached', async () => {
    const gone = await startReceiver();
    await gone.close();
    const { id } = await enqueue({ targetUrl: `${gone.origin}/hooks` });
    expect((await worker().runOnce()).retrying).toBe(1);
    expect((await eventRow(id)).lastError).toMatch(/^Try 1: .*ECONNREFUSED/);
    expect((await attemptsOf(id))[0]).toMatchObject({
      responseStatus: null,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
  });
});

describe('410 Gone', () => {
  it('disables the target: the event fails, and later events for that URL fail without being sent', async () => {
    suite.receiver.respond = (request) => ({ status: request.path === '/gone' ? 410 : 204 });
    const goneUrl = `${suite.receiver.origin}/gone`;
    const first = await enqueue({ targetUrl: goneUrl });
    expect(await worker().runOnce()).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 1 });
    expect(await eventRow(first.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastResponseStatus: 410,
      lastError: 'The target answered 410 Gone: it is disabled and gets no more events',
    });
    const disabled = await suite.handle.db
      .select()
      .from(disabledWebhookTargets)
      .where(eq(disabledWebhookTargets.url, goneUrl));
    expect(disabled).toEqual([
      expect.objectContaining({
        organizationId: suite.organizationId,
        environment: 'test',
        reason: `answered 410 Gone to ${first.id}`,
      }),
    ]);

    const later = await enqueue({ targetUrl: goneUrl });
    const elsewhere = await enqueue({ targetUrl: `${suite.receiver.origin}/fine` });
    expect(await worker().runOnce()).toEqual({ claimed: 2, delivered: 1, retrying: 0, failed: 1 });
    const laterRow = await eventRow(later.id);
    expect(laterRow).toMatchObject({ status: 'failed', attempts: 0 });
    expect(laterRow.lastError).toMatch(
      new RegExp(`^Not sent: ${goneUrl} is disabled since .* \\(answered 410 Gone to ${first.id}\\)$`),
    );
    expect((await eventRow(elsewhere.id)).status).toBe('delivered');
    expect(suite.receiver.requests.map((request) => request.path)).toEqual(['/gone', '/fine']);
  });

  it('disables a URL for its own organization and environment only', async () => {
    suite.receiver.respond = () => ({ status: 410 });
    await enqueue();
    await worker().runOnce();
    suite.receiver.respond = () => ({ status: 204 });
    const otherOrganization = await insertOrganization(suite.handle.db, 'Other');
    await enqueue({ organization: otherOrganization });
    await enqueue({ environment: 'live' });
    expect((await worker().runOnce()).delivered).toBe(2);
  });
});
