import { describe, expect, it } from 'vitest';
import { sessionsApiSuite } from '../../../test/sessions-api-suite.js';
import { countSessions } from '../../../test/verification-fixtures.js';

const { suite, create, get, list, cancel, snapshot, acme } = sessionsApiSuite();

describe('bad input: 400 envelope and nothing written', () => {
  it.each([
    ['no type', { externalEndUserId: 'a' }, 'type is required: kyc or kyb'],
    ['an unknown type', { type: 'kyx', externalEndUserId: 'a' }, 'type must be kyc or kyb'],
    ['no externalEndUserId', { type: 'kyc' }, 'externalEndUserId is required'],
    [
      'an empty externalEndUserId',
      { type: 'kyc', externalEndUserId: '' },
      'externalEndUserId must be 1-255 characters long',
    ],
    [
      'an externalEndUserId of 256 characters',
      { type: 'kyc', externalEndUserId: 'u'.repeat(256) },
      'externalEndUserId must be 1-255 characters long',
    ],
    ['a numeric externalEndUserId', { type: 'kyc', externalEndUserId: 42 }, 'externalEndUserId must be text'],
    ['an empty appName', { type: 'kyc', externalEndUserId: 'a', appName: '' }, 'appName must be 1-100 characters long'],
    [
      'an appName of 101 characters',
      { type: 'kyc', externalEndUserId: 'a', appName: 'n'.repeat(101) },
      'appName must be 1-100 characters long',
    ],
    [
      'a relative callbackUrl',
      { type: 'kyc', externalEndUserId: 'a', callbackUrl: '/hooks' },
      'callbackUrl must be an absolute URL',
    ],
    [
      'an http callbackUrl',
      { type: 'kyc', externalEndUserId: 'a', callbackUrl: 'http://acme.example.com/h' },
      'callbackUrl must use https',
    ],
    [
      'a callbackUrl with a password',
      { type: 'kyc', externalEndUserId: 'a', callbackUrl: 'https://u:p@acme.example.com/h' },
      'callbackUrl must not contain a user name or password',
    ],
    [
      'a loopback callbackUrl',
      { type: 'kyc', externalEndUserId: 'a', callbackUrl: 'https://127.0.0.1/h' },
      'callbackUrl must not point to 127.0.0.1',
    ],
    [
      'a callbackUrl of 2049 characters',
      { type: 'kyc', externalEndUserId: 'a', callbackUrl: `https://acme.example.com/${'c'.repeat(2024)}` },
      'callbackUrl must be 1-2048 characters long',
    ],
    [
      'an http returnUrl',
      { type: 'kyc', externalEndUserId: 'a', returnUrl: 'http://acme.example.com/done' },
      'returnUrl must use https',
    ],
    [
      'a relative returnUrl',
      { type: 'kyc', externalEndUserId: 'a', returnUrl: '/done' },
      'returnUrl must be an absolute URL',
    ],
    [
      'a returnUrl with a password',
      { type: 'kyc', externalEndUserId: 'a', returnUrl: 'https://u:p@acme.example.com/done' },
      'returnUrl must not contain a user name or password',
    ],
    [
      'a private returnUrl',
      { type: 'kyc', externalEndUserId: 'a', returnUrl: 'https://192.168.1.10/done' },
      'returnUrl must not point to 192.168.1.10',
    ],
    [
      'a localhost returnUrl',
      { type: 'kyc', externalEndUserId: 'a', returnUrl: 'https://localhost/done' },
      'returnUrl must not point to localhost',
    ],
    [
      'a returnUrl of 2049 characters',
      { type: 'kyc', externalEndUserId: 'a', returnUrl: `https://acme.example.com/${'r'.repeat(2024)}` },
      'returnUrl must be 1-2048 characters long',
    ],
    [
      'an empty returnUrl',
      { type: 'kyc', externalEndUserId: 'a', returnUrl: '' },
      'returnUrl must be 1-2048 characters long',
    ],
    [
      'an http privacyNoticeUrl',
      { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: 'http://acme.example.com/privacy' },
      'privacyNoticeUrl must use https',
    ],
    [
      'a privacyNoticeUrl that is not a URL',
      { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: 'our privacy notice' },
      'privacyNoticeUrl must be an absolute URL',
    ],
    [
      'a relative privacyNoticeUrl',
      { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: '/privacy' },
      'privacyNoticeUrl must be an absolute URL',
    ],
    [
      'a privacyNoticeUrl with a password',
      { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: 'https://u:p@acme.example.com/privacy' },
      'privacyNoticeUrl must not contain a user name or password',
    ],
    [
      'a private privacyNoticeUrl',
      { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: 'https://10.1.2.3/privacy' },
      'privacyNoticeUrl must not point to 10.1.2.3',
    ],
    [
      'a localhost privacyNoticeUrl',
      { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: 'https://intranet.localhost/privacy' },
      'privacyNoticeUrl must not point to localhost',
    ],
    [
      'a privacyNoticeUrl of 2049 characters',
      { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: `https://acme.example.com/${'p'.repeat(2024)}` },
      'privacyNoticeUrl must be 1-2048 characters long',
    ],
    [
      'an empty privacyNoticeUrl',
      { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: '' },
      'privacyNoticeUrl must be 1-2048 characters long',
    ],
    [
      'a null privacyNoticeUrl',
      { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: null },
      'privacyNoticeUrl must be text of 1-2048 characters',
    ],
    [
      'a null returnUrl',
      { type: 'kyc', externalEndUserId: 'a', returnUrl: null },
      'returnUrl must be text of 1-2048 characters',
    ],
    ['an unknown locale', { type: 'kyc', externalEndUserId: 'a', locale: 'fr' }, 'locale must be en or sw'],
    ['an upper-case locale', { type: 'kyc', externalEndUserId: 'a', locale: 'SW' }, 'locale must be en or sw'],
    ['a null locale', { type: 'kyc', externalEndUserId: 'a', locale: null }, 'locale must be en or sw'],
    ...['\u202e', '\u202a', '\u2066', '\u2069', '\u2028', '\u2029', '\n', '\u0085'].map(
      (character): [string, object, string] => [
        `an appName with U+${character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`,
        { type: 'kyc', externalEndUserId: 'a', appName: `Acme${character}Pay` },
        'appName must be one line of text',
      ],
    ),
  ] as [string, object, string][])('POST with %s', async (_label, body, error) => {
    const before = await snapshot();
    const response = await create(acme.liveKey, body, 'bad-input');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    expect(response.json().error).toContain(error);
    expect(await snapshot()).toEqual(before);
  });

  it('POST with malformed JSON', async () => {
    const before = await snapshot();
    const response = await suite.app.inject({
      method: 'POST',
      url: '/v1/verify/sessions',
      headers: { 'x-service-api-key': acme.liveKey, 'content-type': 'application/json' },
      payload: '{"type": "kyc",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_json');
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['a limit above 100', '?limit=101'],
    ['a limit of 0', '?limit=0'],
    ['an unknown status', '?status=done'],
    ['a cursor this API did not issue', '?cursor=bm90LWEtY3Vyc29y'],
  ])('GET list with %s', async (_label, query) => {
    const response = await list(acme.liveKey, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('validation_error');
  });

  it('GET and cancel with an id that is not a UUID', async () => {
    expect((await get(acme.liveKey, 'session-1')).statusCode).toBe(400);
    expect((await cancel(acme.liveKey, 'session-1')).statusCode).toBe(400);
  });

  it('without an API key: 401', async () => {
    const response = await suite.app.inject({
      method: 'POST',
      url: '/v1/verify/sessions',
      payload: { type: 'kyc', externalEndUserId: 'a' },
    });
    expect(response.statusCode).toBe(401);
    expect(await countSessions(suite.db)).toBe(0);
  });
});
