import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliverySuite } from '../test/delivery-suite.js';
import { NO_TARGET_ERROR } from './delivery.js';
import { ensureWebhookEndpoint, rotateWebhookSecret, setDefaultWebhookUrl } from './endpoints.js';

const suite = deliverySuite();
const { data, enqueue, worker, eventRow, attemptsOf } = suite;

describe('delivering an event', () => {
  it('POSTs the stored body, signed so that the official standardwebhooks library verifies it', async () => {
    const { id } = await enqueue();
    const { secret } = await ensureWebhookEndpoint(suite.handle.db, {
      organizationId: suite.organizationId,
      environment: 'test',
    });

    expect(await worker().runOnce()).toEqual({ claimed: 1, delivered: 1, retrying: 0, failed: 0 });

    expect(suite.receiver.requests).toHaveLength(1);
    const [request] = suite.receiver.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/hooks' });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(id);
    const verified = new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>);
    const stored = await eventRow(id);
    expect(verified).toEqual(stored.payload);
    expect(verified).toEqual({ id, type: 'verification_session.verified', timestamp: expect.any(String), data });
    expect(request!.body.startsWith(`{"id":"${id}","type":"verification_session.verified","timestamp":`)).toBe(true);

    expect(stored).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastResponseStatus: 204,
      lastError: null,
      lockedUntil: null,
    });
    expect(stored.deliveredAt).toBeInstanceOf(Date);
    expect(await attemptsOf(id)).toEqual([
      expect.objectContaining({ attempt: 1, url: `${suite.receiver.origin}/hooks`, responseStatus: 204, error: null }),
    ]);
    // Delivered events are not sent again.
    expect(await worker().runOnce()).toEqual({ claimed: 0, delivered: 0, retrying: 0, failed: 0 });
    expect(suite.receiver.requests).toHaveLength(1);
  });

  it('signs with the new and the previous secret during a rotation, and each verifies with its own', async () => {
    const previous = await ensureWebhookEndpoint(suite.handle.db, {
      organizationId: suite.organizationId,
      environment: 'test',
    });
    const { secret } = await rotateWebhookSecret(suite.handle.db, {
      organizationId: suite.organizationId,
      environment: 'test',
      now: new Date(),
    });
    await enqueue();
    await worker().runOnce();

    const [request] = suite.receiver.requests;
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(secret).verify(request!.body, headers)).not.toThrow();
    expect(() => new Webhook(previous.secret).verify(request!.body, headers)).not.toThrow();
  });

  it('signs with the new secret alone once the grace period is over', async () => {
    const previous = await ensureWebhookEndpoint(suite.handle.db, {
      organizationId: suite.organizationId,
      environment: 'test',
    });
    const yesterday = new Date(Date.now() - 25 * 3_600_000);
    const { secret } = await rotateWebhookSecret(suite.handle.db, {
      organizationId: suite.organizationId,
      environment: 'test',
      now: yesterday,
    });
    await enqueue();
    await worker().runOnce();

    const [request] = suite.receiver.requests;
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(secret).verify(request!.body, headers)).not.toThrow();
    expect(() => new Webhook(previous.secret).verify(request!.body, headers)).toThrow(/No matching signature/);
  });

  it("sends an event without a callbackUrl to the organization's default endpoint of that environment", async () => {
    await setDefaultWebhookUrl(suite.handle.db, {
      organizationId: suite.organizationId,
      environment: 'live',
      defaultUrl: `${suite.receiver.origin}/default-live`,
      now: new Date(),
    });
    await setDefaultWebhookUrl(suite.handle.db, {
      organizationId: suite.organizationId,
      environment: 'test',
      defaultUrl: `${suite.receiver.origin}/default-test`,
      now: new Date(),
    });
    await enqueue({ targetUrl: null, environment: 'live' });
    expect((await worker().runOnce()).delivered).toBe(1);
    expect(suite.receiver.requests.map((request) => request.path)).toEqual(['/default-live']);
  });

  it('fails an event with nowhere to go, saying why, without sending anything', async () => {
    const { id } = await enqueue({ targetUrl: null });
    expect(await worker().runOnce()).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 1 });
    expect(await eventRow(id)).toMatchObject({ status: 'failed', lastError: NO_TARGET_ERROR, attempts: 0 });
    expect(suite.receiver.requests).toHaveLength(0);
  });
});

describe('redirects', () => {
  it('does not follow a 3xx: the target is never asked and the try counts as failed', async () => {
    suite.receiver.respond = (request) =>
      request.path === '/hooks'
        ? { status: 307, headers: { location: `${suite.receiver.origin}/followed` } }
        : { status: 204 };
    const { id } = await enqueue();
    expect((await worker().runOnce()).retrying).toBe(1);
    expect(await eventRow(id)).toMatchObject({
      status: 'pending',
      lastResponseStatus: 307,
      lastError: 'Try 1: HTTP 307 (redirects are not followed)',
    });
    expect(suite.receiver.requests.map((request) => request.path)).toEqual(['/hooks']);
  });
});

describe('the SSRF guard in the worker', () => {
  it('refuses a name resolving to loopback when private targets are not allowed, and gives up on it', async () => {
    const port = new URL(suite.receiver.origin).port;
    const { id } = await enqueue({ targetUrl: `https://hooks.customer.example:${port}/hooks` });
    const delivery = worker({
      allowPrivateTargets: false,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(await delivery.runOnce()).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 1 });
    expect(await eventRow(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'Refused: hooks.customer.example resolves to 127.0.0.1 (loopback), which is not a public address',
    });
    expect(suite.receiver.requests).toHaveLength(0);
  });

  it('refuses plain http and literal loopback addresses unless allowed', async () => {
    const { id } = await enqueue();
    expect((await worker({ allowPrivateTargets: false }).runOnce()).failed).toBe(1);
    expect((await eventRow(id)).lastError).toBe('Refused: The callback URL must use https');
    expect(suite.receiver.requests).toHaveLength(0);
  });
});
