import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  insertUser,
  TEST_AUDIENCE,
  TEST_ISSUER,
  TEST_SECRET,
  type TestApp,
  tokenFor,
} from '../../test/helpers.js';
import { createTokenVerifier } from '../auth/token-verifier.js';

const USER = 'user_auth';
const secretKey = new TextEncoder().encode(TEST_SECRET);

function hs256(claims: { sub?: string; iss?: string; aud?: string; exp?: number | string; nbf?: number | string }) {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
  if (claims.sub !== undefined) jwt.setSubject(claims.sub);
  jwt.setIssuer(claims.iss ?? TEST_ISSUER);
  jwt.setAudience(claims.aud ?? TEST_AUDIENCE);
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  if (claims.nbf !== undefined) jwt.setNotBefore(claims.nbf);
  return jwt.sign(secretKey);
}

async function expectUnauthorized(t: TestApp, authorization: string | undefined) {
  const response = await t.app.inject({
    method: 'GET',
    url: '/v1/notifications',
    headers: authorization === undefined ? {} : { authorization },
  });
  expect(response.statusCode).toBe(401);
  expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
  expect(response.json()).toEqual({
    success: false,
    error: expect.any(String),
    code: 'unauthorized',
    requestId: response.headers['x-request-id'],
  });
}

describe('with an HS256 secret', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await insertUser(t.db, { id: USER });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('accepts a valid token and acts as its subject', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/accounts/me',
      headers: { authorization: `Bearer ${await tokenFor(USER)}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.email).toBe(`${USER}@example.com`);
  });

  it('accepts the scheme name in any case', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/notifications',
      headers: { authorization: `bearer ${await tokenFor(USER)}` },
    });
    expect(response.statusCode).toBe(200);
  });

  const hourAgo = () => Math.floor(Date.now() / 1000) - 3600;
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

  it.each<[string, () => Promise<string | undefined>]>([
    ['no Authorization header', async () => undefined],
    ['an empty header', async () => ''],
    ['another scheme', async () => `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['the scheme without a token', async () => 'Bearer '],
    ['a malformed token', async () => 'Bearer not.a.jwt'],
    ['a token with a bad signature', async () => `Bearer ${(await tokenFor(USER)).slice(0, -4)}AAAA`],
    [
      'a token signed with another secret',
      async () =>
        `Bearer ${await new SignJWT({})
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(USER)
          .setIssuer(TEST_ISSUER)
          .setAudience(TEST_AUDIENCE)
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode('x'.repeat(40)))}`,
    ],
    ['an expired token', async () => `Bearer ${await hs256({ sub: USER, exp: hourAgo() })}`],
    [
      'a token not valid yet',
      async () => `Bearer ${await hs256({ sub: USER, exp: inAnHour() + 3600, nbf: inAnHour() })}`,
    ],
    ['a token without exp', async () => `Bearer ${await hs256({ sub: USER })}`],
    ['a wrong issuer', async () => `Bearer ${await hs256({ sub: USER, exp: '1h', iss: 'https://evil.example/' })}`],
    ['a wrong audience', async () => `Bearer ${await hs256({ sub: USER, exp: '1h', aud: 'another-service' })}`],
    ['no subject', async () => `Bearer ${await hs256({ exp: '1h' })}`],
    ['an empty subject', async () => `Bearer ${await hs256({ sub: '', exp: '1h' })}`],
    ['a subject over 255 characters', async () => `Bearer ${await hs256({ sub: 'u'.repeat(256), exp: '1h' })}`],
    [
      'alg none',
      async () =>
        `Bearer ${new UnsecuredJWT({})
          .setSubject(USER)
          .setIssuer(TEST_ISSUER)
          .setAudience(TEST_AUDIENCE)
          .setExpirationTime('1h')
          .encode()}`,
    ],
  ])('answers 401 with WWW-Authenticate for %s', async (_label, header) => {
    await expectUnauthorized(t, await header());
  });

  it('refuses an unauthenticated request before reading its body', async () => {
    for (const payload of ['{ not json', JSON.stringify({ firstName: 'x'.repeat(t.config.bodyLimitBytes) })]) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: '/v1/accounts/me',
        headers: { authorization: 'Bearer not.a.jwt', 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'unauthorized' });
    }
  });

  it('keeps health, docs and the OpenAPI document public', async () => {
    for (const url of ['/healthz', '/readyz', '/openapi.json', '/docs']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeLessThan(400);
    }
  });

  it('answers 404, not 401, for an unknown route', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('with the service clock', () => {
  it('judges exp by the injected clock', async () => {
    const issued = new Date('2024-01-01T00:00:00.000Z');
    let now = new Date('2024-01-01T00:30:00.000Z');
    const t = await createTestApp({ deps: { now: () => now } });
    try {
      const token = await tokenFor(USER, { now: issued, expiresIn: 3600 });
      const request = () =>
        t.app.inject({ method: 'GET', url: '/v1/notifications', headers: { authorization: `Bearer ${token}` } });
      expect((await request()).statusCode).toBe(200);
      now = new Date('2024-01-01T01:00:06.000Z');
      expect((await request()).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('with a JWKS URL (RS256)', () => {
  let t: TestApp;
  let jwksServer: Server;
  let jwks: { keys: JWK[] };
  let rsaPrivateKey: CryptoKey;
  let rsaPublicKeyPem: string;

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    rsaPrivateKey = privateKey;
    rsaPublicKeyPem = await exportSPKI(publicKey);
    jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' }] };
    jwksServer = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    const { port } = jwksServer.address() as AddressInfo;
    t = await createTestApp({
      env: { AUTH_JWT_SECRET: undefined, AUTH_JWKS_URL: `http://127.0.0.1:${port}/.well-known/jwks.json` },
    });
    await insertUser(t.db, { id: USER });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => jwksServer?.close(resolve));
  });

  const rs256 = (overrides: { kid?: string; aud?: string } = {}) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: overrides.kid ?? 'key-1' })
      .setSubject(USER)
      .setIssuer(TEST_ISSUER)
      .setAudience(overrides.aud ?? TEST_AUDIENCE)
      .setExpirationTime('5m')
      .sign(rsaPrivateKey);

  it('accepts a token signed by a key of the set', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/accounts/me',
      headers: { authorization: `Bearer ${await rs256()}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses an HS256 token, even one signed with the secret the HS256 setup would use', async () => {
    await expectUnauthorized(t, `Bearer ${await hs256({ sub: USER, exp: '1h' })}`);
  });

  it('refuses an HS256 token whose HMAC key is the public key of the set (algorithm confusion)', async () => {
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
      .setSubject(USER)
      .setIssuer(TEST_ISSUER)
      .setAudience(TEST_AUDIENCE)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(rsaPublicKeyPem));
    await expectUnauthorized(t, `Bearer ${forged}`);
    const forgedWithJwk = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
      .setSubject(USER)
      .setIssuer(TEST_ISSUER)
      .setAudience(TEST_AUDIENCE)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(JSON.stringify(jwks.keys[0])));
    await expectUnauthorized(t, `Bearer ${forgedWithJwk}`);
  });

  it('refuses a token whose kid is not in the set', async () => {
    await expectUnauthorized(t, `Bearer ${await rs256({ kid: 'unknown-key' })}`);
  });

  it('refuses a wrong audience', async () => {
    await expectUnauthorized(t, `Bearer ${await rs256({ aud: 'someone-else' })}`);
  });
});

describe('when the key set cannot be fetched', () => {
  it('answers 503 rather than telling the client its token is bad', async () => {
    const closed = createHttpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    const t = await createTestApp({
      env: { AUTH_JWT_SECRET: undefined, AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` },
    });
    try {
      const { privateKey } = await generateKeyPair('ES256');
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'k' })
        .setSubject(USER)
        .setIssuer(TEST_ISSUER)
        .setAudience(TEST_AUDIENCE)
        .setExpirationTime('5m')
        .sign(privateKey);
      const response = await t.app.inject({
        method: 'GET',
        url: '/v1/notifications',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ success: false, code: 'service_unavailable' });
    } finally {
      await t.close();
    }
  });
});

describe('with an injected verifier over a local key set (ES256)', () => {
  it('accepts ES256 tokens from the set and nothing else', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const keySet = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'es', alg: 'ES256' }] });
    const t = await createTestApp({
      deps: {
        tokenVerifier: createTokenVerifier({
          keys: { kind: 'keySet', keySet },
          issuer: TEST_ISSUER,
          audience: TEST_AUDIENCE,
        }),
      },
    });
    try {
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'es' })
        .setSubject(USER)
        .setIssuer(TEST_ISSUER)
        .setAudience(TEST_AUDIENCE)
        .setExpirationTime('5m')
        .sign(privateKey);
      const ok = await t.app.inject({
        method: 'GET',
        url: '/v1/notifications',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(ok.statusCode).toBe(200);
      await expectUnauthorized(t, `Bearer ${await tokenFor(USER)}`);
    } finally {
      await t.close();
    }
  });
});
