import { verificationSessions } from '@platform/db/schema';
import { describe, expect, it } from 'vitest';
import { sessionsApiSuite } from '../../../test/sessions-api-suite.js';
import { countSessions, createSessionRequest } from '../../../test/verification-fixtures.js';

const { suite, create, get, list, cancel, acme, withPrivateTargets } = sessionsApiSuite();

describe('locale and returnUrl', () => {
  const returnUrl = 'https://acme.example.com/verified?step=done';

  it('keeps them, and answers them in create, get, list and cancel', async () => {
    const created = await create(acme.liveKey, {
      type: 'kyc',
      externalEndUserId: 'swahili-speaker',
      locale: 'sw',
      returnUrl,
    });
    expect(created.statusCode).toBe(201);
    const session = created.json().data;
    expect(session).toMatchObject({ locale: 'sw', returnUrl });
    expect((await get(acme.liveKey, session.sessionId)).json().data).toEqual({ ...session, checks: [] });
    expect((await list(acme.liveKey)).json().data.sessions).toEqual([session]);
    const canceled = await cancel(acme.liveKey, session.sessionId);
    expect(canceled.json().data).toMatchObject({ locale: 'sw', returnUrl, status: 'canceled' });
  });

  it('defaults to English without a return URL', async () => {
    const session = (await create(acme.liveKey, { type: 'kyb', externalEndUserId: 'company' })).json().data;
    expect(session).toMatchObject({ locale: 'en', returnUrl: null });
    const [row] = await suite.db.select().from(verificationSessions);
    expect(row).toMatchObject({ locale: 'en', returnUrl: null });
  });

  it('accepts an http or private returnUrl only when private targets are allowed', async () => {
    const body = { type: 'kyc', externalEndUserId: 'local', returnUrl: 'http://localhost:5173/done' };
    expect((await create(acme.liveKey, body)).statusCode).toBe(400);
    await withPrivateTargets(async (local) => {
      const response = await createSessionRequest(local, acme.liveKey, body);
      expect(response.statusCode).toBe(201);
      expect(response.json().data.returnUrl).toBe('http://localhost:5173/done');
    });
  });

  it('treats an omitted locale and "en" as the same request, and another locale or returnUrl as a different one', async () => {
    const body = { type: 'kyc', externalEndUserId: 'retry-locale' };
    const first = await create(acme.liveKey, body, 'locale-key');
    const explicit = await create(acme.liveKey, { ...body, locale: 'en' }, 'locale-key');
    expect(explicit.statusCode).toBe(201);
    expect(explicit.headers['idempotent-replayed']).toBe('true');
    expect(explicit.body).toBe(first.body);
    expect((await create(acme.liveKey, { ...body, locale: 'sw' }, 'locale-key')).statusCode).toBe(422);
    expect((await create(acme.liveKey, { ...body, returnUrl }, 'locale-key')).statusCode).toBe(422);
    expect(await countSessions(suite.db)).toBe(1);
  });
});

describe('privacyNoticeUrl', () => {
  const privacyNoticeUrl = 'https://acme.example.com/legal/privacy?lang=en#verification';

  it('keeps it, and answers it in create, get, list and cancel', async () => {
    const created = await create(acme.liveKey, { type: 'kyc', externalEndUserId: 'reader', privacyNoticeUrl });
    expect(created.statusCode).toBe(201);
    const session = created.json().data;
    expect(session.privacyNoticeUrl).toBe(privacyNoticeUrl);
    expect((await get(acme.liveKey, session.sessionId)).json().data).toEqual({ ...session, checks: [] });
    expect((await list(acme.liveKey)).json().data.sessions).toEqual([session]);
    const canceled = await cancel(acme.liveKey, session.sessionId);
    expect(canceled.json().data).toMatchObject({ privacyNoticeUrl, status: 'canceled' });
    const [row] = await suite.db.select().from(verificationSessions);
    expect(row?.privacyNoticeUrl).toBe(privacyNoticeUrl);
  });

  it('is null when not given', async () => {
    const session = (await create(acme.liveKey, { type: 'kyb', externalEndUserId: 'company' })).json().data;
    expect(session.privacyNoticeUrl).toBeNull();
    const [row] = await suite.db.select().from(verificationSessions);
    expect(row?.privacyNoticeUrl).toBeNull();
  });

  it('accepts an http or private privacyNoticeUrl only when private targets are allowed', async () => {
    const body = { type: 'kyc', externalEndUserId: 'local', privacyNoticeUrl: 'http://10.0.0.5:8080/privacy' };
    const refused = await create(acme.liveKey, body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain('privacyNoticeUrl must use https');
    await withPrivateTargets(async (local) => {
      const response = await createSessionRequest(local, acme.liveKey, body);
      expect(response.statusCode).toBe(201);
      expect(response.json().data.privacyNoticeUrl).toBe('http://10.0.0.5:8080/privacy');
      // Allowing private targets still allows only web addresses: the page links to it.
      const script = await createSessionRequest(local, acme.liveKey, { ...body, privacyNoticeUrl: 'javascript:x()' });
      expect(script.statusCode).toBe(400);
      expect(script.json().error).toContain('privacyNoticeUrl must use https or http');
    });
    expect(await countSessions(suite.db)).toBe(1);
  });

  it('is described in OpenAPI, in the create body and the session', async () => {
    const openapi = (await suite.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const { CreateVerificationSession, VerificationSession } = openapi.components.schemas;
    expect(CreateVerificationSession.properties.privacyNoticeUrl).toMatchObject({
      type: 'string',
      maxLength: 2048,
      description: expect.stringContaining('privacy notice'),
    });
    expect(CreateVerificationSession.required).not.toContain('privacyNoticeUrl');
    expect(VerificationSession.properties.privacyNoticeUrl.description).toContain('null when not given');
    expect(VerificationSession.required).toContain('privacyNoticeUrl');
  });

  it('makes another privacyNoticeUrl under the same idempotency key a different request', async () => {
    const body = { type: 'kyc', externalEndUserId: 'retry-privacy', privacyNoticeUrl };
    expect((await create(acme.liveKey, body, 'privacy-key')).statusCode).toBe(201);
    const other = { ...body, privacyNoticeUrl: 'https://acme.example.com/privacy-v2' };
    expect((await create(acme.liveKey, other, 'privacy-key')).statusCode).toBe(422);
    expect(
      (await create(acme.liveKey, { type: 'kyc', externalEndUserId: 'retry-privacy' }, 'privacy-key')).statusCode,
    ).toBe(422);
    expect(await countSessions(suite.db)).toBe(1);
  });
});
