import { tableChecksums } from '@platform/db/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { replaceOrganizations, type TestOrganization, useTestApp } from '../../test/app-fixtures.js';
import { HOSTED_PAGE_TEST_SECRET, testFormToken } from '../../test/hosted-page-fixtures.js';
import {
  createdSessionId,
  createSessionRequest,
  fundWallet,
  truncateVerificationData,
} from '../../test/verification-fixtures.js';

// What PostgreSQL cannot store as text: U+0000, and UTF-16 surrogates without their pair.
const unstorable = ['a\u0000b', '\ud800', 'x\udfff'] as const;

describe('text PostgreSQL cannot store', () => {
  const suite = useTestApp({ env: { HOSTED_PAGE_SECRET: HOSTED_PAGE_TEST_SECRET } });
  let acme: TestOrganization;

  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme');
    await fundWallet(suite.db, acme.id, 'test', 1_000);
    // The key's first use records lastUsedAt after its answer; make it now, so the refused requests find it set.
    await suite.app.inject({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': acme.testKey } });
    await suite.app.apiKeyUsage.flush();
  });

  /** Sends the request and expects a 400 naming `path` that changed nothing. */
  async function expectRefused(
    send: () => Promise<{ statusCode: number; json(): unknown }>,
    path: string,
    // A single-line name refuses U+0000 as the control character it is, before the storable-text rule sees it.
    message: unknown = expect.stringMatching(/U\+0000|^must be one line of text/),
  ) {
    const before = await tableChecksums(suite.db);
    const response = await send();
    await suite.app.apiKeyUsage.flush();
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      details: expect.arrayContaining([{ path, message }]),
    });
    expect(await tableChecksums(suite.db)).toEqual(before);
  }

  describe.each(unstorable)('%j', (text) => {
    it.each(['externalEndUserId', 'appName', 'callbackUrl'])('in a session’s %s', async (field) => {
      const body: Record<string, string> = {
        type: 'kyc',
        externalEndUserId: 'end-user-1',
        callbackUrl: 'https://acme.example.com/hook',
        [field]: `${field === 'callbackUrl' ? 'https://acme.example.com/' : ''}${text}`,
      };
      await expectRefused(() => createSessionRequest(suite.app, acme.testKey, body, crypto.randomUUID()), `/${field}`);
    });

    it('in a drive folder name sent as a JSON escape', async () => {
      const escaped = JSON.stringify({ name: text });
      await expectRefused(
        () =>
          suite.app.inject({
            method: 'POST',
            url: '/v1/drive/folders',
            headers: { 'x-service-api-key': acme.testKey, 'content-type': 'application/json' },
            payload: escaped,
          }),
        '/name',
      );
    });
  });

  // Query strings, paths and forms are percent-encoded UTF-8, which has no form for a lone surrogate (%ED%A0%80
  // stays that text or becomes U+FFFD): U+0000 is what they can carry.
  it('U+0000 in a session-list filter', async () => {
    await expectRefused(
      () =>
        suite.app.inject({
          method: 'GET',
          url: '/v1/verify/sessions?externalEndUserId=a%00b',
          headers: { 'x-service-api-key': acme.testKey },
        }),
      'querystring/externalEndUserId',
    );
  });

  it('U+0000 in the hosted page’s reject reason', async () => {
    const id = await createdSessionId(suite.app, acme.testKey);
    const form = (fields: Record<string, string>) =>
      suite.app.inject({
        method: 'POST',
        url: `/session/${id}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token: testFormToken(id), ...fields }).toString(),
      });
    expect((await form({ action: 'agree' })).headers.location).toBe(`${id}?notice=consent_recorded`);
    expect((await form({ action: 'submit' })).headers.location).toBe(`${id}?notice=submitted`);
    await expectRefused(() => form({ action: 'reject', reason: 'blurry\u0000photo' }), '/reason');
  });

  it('U+0000 in a path parameter (a session id is a UUID, so its format already refuses it)', async () => {
    await expectRefused(
      () =>
        suite.app.inject({
          method: 'GET',
          url: '/v1/verify/sessions/a%00b',
          headers: { 'x-service-api-key': acme.testKey },
        }),
      'params/id',
      expect.any(String),
    );
  });

  describe('a JSON body that is not UTF-8 (FF FE C3 inside a string)', () => {
    const notUtf8 = (prefix: string) =>
      Buffer.concat([Buffer.from(prefix), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);

    it.each([
      ['a folder name', '/v1/drive/folders', '{"name":"'],
      ['a session’s appName', '/v1/verify/sessions', '{"type":"kyc","externalEndUserId":"u","appName":"'],
    ])(
      'in %s is a 400 invalid_json that stores nothing, not a name of replacement characters',
      async (_l, url, prefix) => {
        const before = await tableChecksums(suite.db);
        const response = await suite.app.inject({
          method: 'POST',
          url,
          headers: { 'x-service-api-key': acme.testKey, 'content-type': 'application/json', 'idempotency-key': 'utf8' },
          payload: notUtf8(prefix),
        });
        await suite.app.apiKeyUsage.flush();
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          success: false,
          code: 'invalid_json',
          error: 'Request body is not valid UTF-8: send JSON encoded as UTF-8',
        });
        expect(await tableChecksums(suite.db)).toEqual(before);
      },
    );
  });

  // Bidirectional controls, the line and paragraph separators and line breaks cannot be shown in a name on one line
  // (docs/decisions.md#single-line-names).
  describe.each(['\u202e', '\u202a', '\u2066', '\u2069', '\u2028', '\u2029', '\n', '\r'])(
    '%j in a name',
    (character) => {
      const oneLine = expect.stringMatching(/^must be one line of text, without control characters/);

      it('of a folder, a session’s app or a kyb company is a 400 saying so, and changes nothing', async () => {
        const name = `Acme${character}Holdings`;
        const session = await createdSessionId(suite.app, acme.testKey, { type: 'kyb', externalEndUserId: 'co' });
        const post = (url: string, payload: object) => () =>
          suite.app.inject({ method: 'POST', url, headers: { 'x-service-api-key': acme.testKey }, payload });
        await expectRefused(post('/v1/drive/folders', { name }), '/name', oneLine);
        await expectRefused(
          post('/v1/verify/sessions', { type: 'kyc', externalEndUserId: 'u', appName: name }),
          '/appName',
          oneLine,
        );
        await expectRefused(
          post(`/v1/verify/sessions/${session}/submit`, { registrationNumber: 'PVT-AB12CD3', companyName: name }),
          '/companyName',
          oneLine,
        );
      });
    },
  );
});
