import { describe, expect, it } from 'vitest';
import { SecretUrls } from './secret-urls.js';

const TOKEN = 'Tok3n-7f3a9c2e5b1d4e8f';

function registry() {
  const urls = new SecretUrls();
  urls.add('/v1/billing/webhooks/mpesa/:token');
  urls.add('/session/:id');
  urls.add('/v1/reports/export');
  return urls;
}

describe('SecretUrls.lookalikeOf', () => {
  it.each([
    `/v1/billing/webhooks/mpesa/${TOKEN}`,
    `/v1/billing/webhooks/mpesa/${TOKEN}/`,
    `/v1/billing/webhooks/mpesa/${TOKEN}?a=1`,
    `/V1/BILLING/WEBHOOKS/MPESA/${TOKEN}`,
    `//v1//billing/webhooks///mpesa//${TOKEN}`,
    `/v1/billing/webhooks%2Fmpesa/${TOKEN}`,
    `/v1/billing/webhooks%252Fmpesa/${TOKEN}`,
    `/v1/billing/webhooks/%6d%70esa/${TOKEN}`,
    `/v1/billing/webhooks/mpesa/${TOKEN}%E0%A4%A`,
    `/v1/billing/webhooks/mpesa/${TOKEN}/more/segments`,
    `https://api.example.com/v1/billing/webhooks/mpesa/${TOKEN}`,
  ])('names the M-Pesa pattern for %s', (url) => {
    expect(registry().lookalikeOf(url)).toBe('/v1/billing/webhooks/mpesa/:token');
  });

  it.each([
    ['/session/abc', '/session/:id'],
    ['/Session/abc/', '/session/:id'],
    ['/v1/reports/export?key=abc', '/v1/reports/export'],
    ['/V1/Reports/Export/', '/v1/reports/export'],
  ])('names the pattern of the route %s looks like', (url, pattern) => {
    expect(registry().lookalikeOf(url)).toBe(pattern);
  });

  it.each([
    '/v1/billing/webhooks/mpesa',
    '/v1/billing/webhooks/paystack',
    '/v1/billing/webhooks/mpesatoken',
    '/v1/verify/sessions/abc',
    '/sessions/abc',
    '/session',
    '/v1/reports/exports',
    '/',
  ])('leaves %s alone', (url) => {
    expect(registry().lookalikeOf(url)).toBeUndefined();
  });

  it('knows nothing before a route is added', () => {
    expect(new SecretUrls().lookalikeOf(`/v1/billing/webhooks/mpesa/${TOKEN}`)).toBeUndefined();
  });
});

describe('routes that share their secret start', () => {
  // The hosted page and its upload route: whichever was added first, each path is named by its own pattern.
  it.each([
    ['/session/:id', '/session/:id/documents'],
    ['/session/:id/documents', '/session/:id'],
  ])('names /session/<id> and /session/<id>/documents apart (added %s first)', (first, second) => {
    const urls = new SecretUrls();
    urls.add(first);
    urls.add(second);
    expect(urls.lookalikeOf(`/session/${TOKEN}`)).toBe('/session/:id');
    expect(urls.lookalikeOf(`/session/${TOKEN}/`)).toBe('/session/:id');
    expect(urls.lookalikeOf(`/session/${TOKEN}/documents`)).toBe('/session/:id/documents');
    expect(urls.redact(`GET /session/${TOKEN} and POST /session/${TOKEN}/documents`)).toBe(
      'GET /session/:id and POST /session/:id/documents',
    );
  });
});

describe('SecretUrls.redact', () => {
  it.each([
    [
      `fetch https://api.example.com/v1/billing/webhooks/mpesa/${TOKEN}?x=1 failed`,
      'fetch https://api.example.com/v1/billing/webhooks/mpesa/:token failed',
    ],
    [`'/V1/Billing//webhooks/mpesa/${TOKEN}/' is not valid`, `'/v1/billing/webhooks/mpesa/:token' is not valid`],
    [`(url /v1/billing/webhooks%2Fmpesa/${TOKEN}), retrying`, '(url /v1/billing/webhooks/mpesa/:token), retrying'],
    [
      `see https://verify.example/session/${TOKEN} and /session/other`,
      'see https://verify.example/session/:id and /session/:id',
    ],
    ['GET /v1/reports/export?key=abc', 'GET /v1/reports/export'],
  ])('replaces the URL in %s by its pattern', (text, expected) => {
    expect(registry().redact(text)).toBe(expected);
  });

  it('leaves other text alone', () => {
    const text = 'GET /v1/verify/sessions/abc answered 404; /v1/billing/webhooks/paystack is fine';
    expect(registry().redact(text)).toBe(text);
  });
});
