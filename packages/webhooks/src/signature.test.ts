import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from './signature.js';

const body = JSON.stringify({
  id: 'msg_1',
  type: 'verification_session.verified',
  timestamp: '2024-01-01T00:00:00.000Z',
  data: {},
});

describe('generateWebhookSecret', () => {
  it('makes whsec_ + base64 of 32 random bytes, different every time', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe('signWebhook', () => {
  it('produces headers the official standardwebhooks library accepts', () => {
    const secret = generateWebhookSecret();
    const sentAt = new Date();
    const headers = signWebhook({ id: 'msg_1', body, secrets: [secret], sentAt });
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(sentAt.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('signs with every given secret, space-separated, and each verifies on its own', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = signWebhook({ id: 'msg_1', body, secrets: [current, previous], sentAt: new Date() });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it('is refused for a changed body, id or timestamp', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook({ id: 'msg_1', body, secrets: [secret], sentAt: new Date() });
    const webhook = new Webhook(secret);
    expect(() => webhook.verify(body.replace('verified', 'rejected'), headers)).toThrow();
    expect(() => webhook.verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
    const earlier = String(Number(headers['webhook-timestamp']) - 1);
    expect(() => webhook.verify(body, { ...headers, 'webhook-timestamp': earlier })).toThrow();
  });

  it('needs a whsec_ secret and at least one', () => {
    expect(() => signWebhook({ id: 'msg_1', body, secrets: [], sentAt: new Date() })).toThrow(/at least one/);
    expect(() => signWebhook({ id: 'msg_1', body, secrets: ['c2VjcmV0'], sentAt: new Date() })).toThrow(/whsec_/);
  });
});
