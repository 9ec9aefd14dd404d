import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../test/receiver.js';
import { createWebhookSender } from './http-sender.js';
import { EXCERPT_READ_BYTES } from './response-excerpt.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const webhook = (url: string) => ({ url, headers: { 'webhook-id': 'msg_1' }, body: '{"id":"msg_1"}' });

describe('the body of the answer', () => {
  it('is returned as it came, for the worker to scrub', async () => {
    receiver.respond = () => ({ status: 500, body: 'Upstream failed: token=abc' });
    const send = createWebhookSender({ allowPrivateTargets: true });
    expect(await send(webhook(`${receiver.origin}/hook`))).toEqual({ status: 500, body: 'Upstream failed: token=abc' });
  });

  it(`is read up to ${EXCERPT_READ_BYTES} bytes only`, async () => {
    receiver.respond = () => ({ status: 200, body: 'x'.repeat(100_000) });
    const send = createWebhookSender({ allowPrivateTargets: true });
    const response = await send(webhook(`${receiver.origin}/hook`));
    expect(response.status).toBe(200);
    expect(response.body).toBe('x'.repeat(EXCERPT_READ_BYTES));
  });
});
