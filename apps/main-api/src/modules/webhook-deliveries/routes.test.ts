import { setDefaultWebhookUrl } from '@platform/webhooks';
import { describe, expect, it } from 'vitest';
import { deliveryLogSuite, MEMBER, OUTSIDER } from '../../../test/webhook-delivery-fixtures.js';
import { EVENT_NOT_FOUND } from './service.js';

const { state, runWorker, enqueue, call } = deliveryLogSuite();

const minutes = (count: number) => count * 60_000;

describe('GET /v1/webhooks/events/:eventId', () => {
  it('shows each try of an event that failed, then was delivered, with its latency, outcome and scrubbed answer', async () => {
    let failures = 1;
    state.receiver.respond = () =>
      failures-- > 0
        ? {
            status: 503,
            body: 'Service unavailable\u0000\r\n{"password":"hunter2","contact":"ops@customer.example"} Bearer abc.def',
          }
        : { status: 200, body: '{"received":true}' };
    const { id } = await enqueue();
    expect(await runWorker()).toMatchObject({ claimed: 1, retrying: 1 });

    const retrying = (await call('GET', `/v1/webhooks/events/${id}`)).json();
    expect(retrying.data).toMatchObject({ id, outcome: 'retrying', attemptCount: 1, lastStatusCode: 503 });
    expect(retrying.data.nextAttemptAt).not.toBeNull();

    state.clock = new Date(retrying.data.nextAttemptAt);
    expect(await runWorker()).toMatchObject({ delivered: 1 });

    const response = await call('GET', `/v1/webhooks/events/${id}`);
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toMatchObject({
      id,
      type: 'verification_session.verified',
      environment: 'test',
      outcome: 'delivered',
      deliveries: 1,
      attemptCount: 2,
      nextAttemptAt: null,
      lastStatusCode: 200,
      lastError: null,
      body: { id, type: 'verification_session.verified', data: { status: 'verified' } },
    });
    expect(data.attempts).toEqual([
      {
        delivery: 1,
        attempt: 1,
        at: '2026-03-02T09:00:00.000Z',
        url: `${state.receiver.origin}/hooks`,
        statusCode: 503,
        latencyMs: expect.any(Number),
        outcome: 'retrying',
        error: null,
        responseExcerpt: 'Service unavailable {"password":"[redacted]","contact":"[redacted]"} Bearer [redacted]',
      },
      {
        delivery: 1,
        attempt: 2,
        at: state.clock.toISOString(),
        url: `${state.receiver.origin}/hooks`,
        statusCode: 200,
        latencyMs: expect.any(Number),
        outcome: 'delivered',
        error: null,
        responseExcerpt: '{"received":true}',
      },
    ]);
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('ops@customer.example');
  });

  it('shows an event given up on as failed for good', async () => {
    state.receiver.respond = () => ({ status: 410, body: 'gone' });
    const { id } = await enqueue();
    await runWorker();
    const { data } = (await call('GET', `/v1/webhooks/events/${id}`)).json();
    expect(data).toMatchObject({ outcome: 'failed', nextAttemptAt: null, lastStatusCode: 410 });
    expect(data.attempts).toEqual([expect.objectContaining({ outcome: 'failed', responseExcerpt: 'gone' })]);
  });

  it("answers another organization's event with the same 404 as an unknown one", async () => {
    const { id } = await enqueue({ organizationId: state.orgB });
    const theirs = await call('GET', `/v1/webhooks/events/${id}`);
    const unknown = await call('GET', '/v1/webhooks/events/msg_00UFlcovAys1ExXuJCGgmTSurEx');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ success: false, code: 'not_found', error: EVENT_NOT_FOUND });
    expect({ ...theirs.json(), requestId: undefined }).toEqual({ ...unknown.json(), requestId: undefined });
    // Its owner sees it.
    const own = await call('GET', `/v1/webhooks/events/${id}`, { userId: OUTSIDER, organizationId: state.orgB });
    expect(own.statusCode).toBe(200);
  });
});

describe('GET /v1/webhooks/events', () => {
  it('lists newest first in cursor pages, each event with its latest try', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await enqueue({ at: new Date(state.clock.getTime() + minutes(i)) })).id);
    }
    await enqueue({ organizationId: state.orgB });
    state.clock = new Date(state.clock.getTime() + minutes(10));
    await runWorker();

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '' : `&cursor=${cursor}`;
      const response = await call('GET', `/v1/webhooks/events?limit=2${query}`);
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      for (const event of data.events) {
        seen.push(event.id);
        expect(event.lastAttempt).toMatchObject({ attempt: 1, statusCode: 204, outcome: 'delivered' });
      }
      cursor = data.nextCursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('filters by environment, type, outcome and date range', async () => {
    const start = state.clock.getTime();
    const at = (minute: number) => new Date(start + minutes(minute));
    const delivered = (await enqueue({ at: at(0) })).id;
    const live = (await enqueue({ environment: 'live', at: at(1) })).id; // no live URL: failed for good
    const lowBalance = (await enqueue({ type: 'wallet.balance_low', at: at(2) })).id;
    state.clock = at(3);
    await runWorker();
    state.receiver.respond = () => ({ status: 500 });
    const retrying = (await enqueue({ at: at(4) })).id;
    state.clock = at(4);
    await runWorker();
    const pending = (await enqueue({ at: at(5) })).id;

    const list = async (query: string) => {
      const response = await call('GET', `/v1/webhooks/events?${query}`);
      expect(response.statusCode).toBe(200);
      return (response.json().data.events as { id: string }[]).map((event) => event.id);
    };
    expect(await list('environment=live')).toEqual([live]);
    expect(await list('environment=test')).toEqual([pending, retrying, lowBalance, delivered]);
    expect(await list('type=wallet.balance_low')).toEqual([lowBalance]);
    expect(await list('outcome=delivered')).toEqual([lowBalance, delivered]);
    expect(await list('outcome=failed')).toEqual([live]);
    expect(await list('outcome=retrying')).toEqual([retrying]);
    expect(await list('outcome=pending')).toEqual([pending]);
    expect(await list(`from=${at(1).toISOString()}&to=${at(4).toISOString()}`)).toEqual([lowBalance, live]);
    expect(await list('outcome=delivered&type=verification_session.verified&environment=test')).toEqual([delivered]);
  });

  it('refuses a from after to, an unknown outcome and a cursor it did not give', async () => {
    const from = await call('GET', '/v1/webhooks/events?from=2026-03-02T10:00:00Z&to=2026-03-02T09:00:00Z');
    expect(from.statusCode).toBe(400);
    expect(from.json()).toMatchObject({ code: 'validation_error', details: [{ path: 'querystring/from' }] });
    expect((await call('GET', '/v1/webhooks/events?outcome=lost')).statusCode).toBe(400);
    const cursor = await call('GET', '/v1/webhooks/events?cursor=bm90LWEtY3Vyc29y');
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json()).toMatchObject({ details: [{ path: 'querystring/cursor' }] });
  });

  it('is open to every member, and shows no URL query string', async () => {
    await setDefaultWebhookUrl(state.t.db, {
      organizationId: state.orgA,
      environment: 'test',
      defaultUrl: `${state.receiver.origin}/hooks?token=s3cret-in-query`,
      now: state.clock,
    });
    await enqueue();
    await runWorker();
    expect(state.receiver.received[0]?.path).toBe('/hooks?token=s3cret-in-query');
    const response = await call('GET', '/v1/webhooks/events', { userId: MEMBER });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.events).toEqual([
      expect.objectContaining({ lastAttempt: expect.objectContaining({ url: `${state.receiver.origin}/hooks` }) }),
    ]);
    expect(response.body).not.toContain('s3cret');
    // An outsider names an organization it is not in: refused before anything is read.
    expect((await call('GET', '/v1/webhooks/events', { userId: OUTSIDER })).statusCode).toBe(403);
  });
});
