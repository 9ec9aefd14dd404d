import { auditEvents, webhookEvents } from '@platform/db/schema';
import { setDefaultWebhookUrl } from '@platform/webhooks';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveryLogSuite, MEMBER, OUTSIDER } from '../../../test/webhook-delivery-fixtures.js';
import { refusalMessage } from '../organizations/index.js';
import { REDELIVERY_ALREADY_SCHEDULED, REDELIVERY_SCHEDULED, TEST_EVENT_SENT } from './routes.js';
import { EVENT_NOT_FOUND, NO_DEFAULT_URL } from './service.js';

const { state, runWorker, enqueue, call } = deliveryLogSuite();

const redeliver = (id: string, options: { userId?: string; organizationId?: string } = {}) =>
  call('POST', `/v1/webhooks/events/${id}/redeliver`, options);

async function storedEvent(id: string) {
  const [row] = await state.t.db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return row;
}

async function auditActions(organizationId: string) {
  const rows = await state.t.db
    .select({ action: auditEvents.action, targetId: auditEvents.targetId })
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId)));
  return rows;
}

describe('POST /v1/webhooks/events/:eventId/redeliver', () => {
  it('sends a failed event again, now, with the same webhook-id and body, to the URL set now', async () => {
    state.receiver.respond = () => ({ status: 410 });
    const { id } = await enqueue();
    await runWorker();
    expect((await storedEvent(id))?.status).toBe('failed');

    // The customer fixes their endpoint and sets it (again) as the default, which also re-enables it.
    await setDefaultWebhookUrl(state.t.db, {
      organizationId: state.orgA,
      environment: 'test',
      defaultUrl: `${state.receiver.origin}/fixed`,
      now: state.clock,
    });
    state.receiver.respond = () => ({ status: 200, body: 'thanks' });
    state.clock = new Date(state.clock.getTime() + 86_400_000);
    const response = await redeliver(id);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({
      success: true,
      message: REDELIVERY_SCHEDULED,
      data: {
        result: 'scheduled',
        event: { id, outcome: 'pending', deliveries: 2, attemptCount: 0, nextAttemptAt: state.clock.toISOString() },
      },
    });

    expect(await runWorker()).toMatchObject({ claimed: 1, delivered: 1 });
    const [first, second] = state.receiver.received;
    expect(second?.path).toBe('/fixed');
    expect(second?.headers['webhook-id']).toBe(id);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.body).toBe(first?.body);

    const { data } = (await call('GET', `/v1/webhooks/events/${id}`)).json();
    expect(data).toMatchObject({ outcome: 'delivered', deliveries: 2, attemptCount: 1 });
    expect(data.attempts.map((attempt: Record<string, unknown>) => [attempt.delivery, attempt.outcome])).toEqual([
      [1, 'failed'],
      [2, 'delivered'],
    ]);
    expect(await auditActions(state.orgA)).toEqual([{ action: 'webhook_event.redelivered', targetId: id }]);
  });

  it('schedules one delivery for a double click, even two requests at once', async () => {
    const { id } = await enqueue();
    await runWorker();
    const answers = await Promise.all([redeliver(id), redeliver(id)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202]);
    expect(answers.map((answer) => answer.json().data.result).sort()).toEqual(['already_scheduled', 'scheduled']);
    expect(answers.map((answer) => answer.json().message).sort()).toEqual(
      [REDELIVERY_ALREADY_SCHEDULED, REDELIVERY_SCHEDULED].sort(),
    );
    // A third click, later, while it waits.
    expect((await redeliver(id)).json().data).toMatchObject({ result: 'already_scheduled', event: { deliveries: 2 } });
    expect((await storedEvent(id))?.deliveries).toBe(2);

    state.receiver.received.length = 0;
    expect(await runWorker()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await runWorker()).toMatchObject({ claimed: 0 });
    expect(state.receiver.received).toHaveLength(1);
    expect(await auditActions(state.orgA)).toHaveLength(1);
  });

  it("answers another organization's event with the same 404 as an unknown one, and changes nothing", async () => {
    const { id } = await enqueue({ organizationId: state.orgB });
    await runWorker();
    const theirs = await redeliver(id);
    const unknown = await redeliver('msg_00UFlcovAys1ExXuJCGgmTSurEx');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'not_found', error: EVENT_NOT_FOUND });
    expect({ ...theirs.json(), requestId: undefined }).toEqual({ ...unknown.json(), requestId: undefined });
    expect(await storedEvent(id)).toMatchObject({ status: 'failed', deliveries: 1 });
    expect((await redeliver(id, { userId: OUTSIDER, organizationId: state.orgB })).statusCode).toBe(202);
  });

  it('is refused to a plain member, who may read the log', async () => {
    const { id } = await enqueue();
    await runWorker();
    const refused = await redeliver(id, { userId: MEMBER });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden', error: refusalMessage('developer:write') });
    expect((await call('GET', `/v1/webhooks/events/${id}`, { userId: MEMBER })).statusCode).toBe(200);
    expect((await storedEvent(id))?.deliveries).toBe(1);
  });
});

describe('POST /v1/webhooks/endpoints/:environment/test', () => {
  it('sends a signed webhook.test to the default URL through the outbox, and logs it', async () => {
    const response = await call('POST', '/v1/webhooks/endpoints/test/test');
    expect(response.statusCode).toBe(202);
    const { data, message } = response.json();
    expect(message).toBe(TEST_EVENT_SENT);
    expect(data).toEqual({
      eventId: expect.stringMatching(/^msg_[0-9A-Za-z]{27}$/),
      type: 'webhook.test',
      environment: 'test',
    });
    expect(state.receiver.received).toHaveLength(0);

    await runWorker();
    const [callback] = state.receiver.received;
    expect(callback?.path).toBe('/hooks');
    expect(callback?.headers['webhook-id']).toBe(data.eventId);
    expect(callback?.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.parse(callback!.body)).toMatchObject({
      id: data.eventId,
      type: 'webhook.test',
      data: { environment: 'test' },
    });

    const logged = (await call('GET', '/v1/webhooks/events?type=webhook.test')).json().data.events;
    expect(logged).toEqual([expect.objectContaining({ id: data.eventId, outcome: 'delivered' })]);
    expect(await auditActions(state.orgA)).toEqual([{ action: 'webhook_event.test_sent', targetId: data.eventId }]);
  });

  it('is a 409 for an environment without a default URL, and writes nothing', async () => {
    const response = await call('POST', '/v1/webhooks/endpoints/live/test');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'conflict', error: NO_DEFAULT_URL('live') });
    expect(await state.t.db.select().from(webhookEvents)).toEqual([]);
    expect((await call('POST', '/v1/webhooks/endpoints/prod/test')).statusCode).toBe(400);
    expect((await call('POST', '/v1/webhooks/endpoints/test/test', { userId: MEMBER })).statusCode).toBe(403);
  });
});
