import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  createGuardedLookup,
  type HostResolver,
  validateCallbackUrl,
  WebhookTargetRefusedError,
} from './target-guard.js';

const strict = { allowPrivateTargets: false };
const relaxed = { allowPrivateTargets: true };

describe('validateCallbackUrl', () => {
  it.each([
    'https://hooks.example.com/callbacks',
    'https://hooks.example.com:8443/callbacks?source=platform',
    'https://93.184.216.34/hook',
    'https://[2606:4700:4700::1111]/hook',
  ])('accepts %s', (url) => {
    const check = validateCallbackUrl(url, strict);
    expect(check.ok).toBe(true);
  });

  it.each([
    ['not a url', 'must be an absolute URL'],
    ['/relative/path', 'must be an absolute URL'],
    ['http://hooks.example.com/callbacks', 'must use https'],
    ['ftp://hooks.example.com/file', 'must use https'],
    ['https://user:pass@hooks.example.com/', 'must not contain a user name or password'],
    ['https://localhost/hook', 'must not point to localhost'],
    ['https://api.localhost/hook', 'must not point to localhost'],
    ['https://127.0.0.1/hook', 'must not point to 127.0.0.1 (loopback): callbacks go to public addresses only'],
    ['https://10.0.0.5/hook', 'must not point to 10.0.0.5 (private): callbacks go to public addresses only'],
    [
      'https://169.254.169.254/latest/meta-data',
      'must not point to 169.254.169.254 (link-local): callbacks go to public addresses only',
    ],
    ['https://[::1]/hook', 'must not point to ::1 (loopback): callbacks go to public addresses only'],
    [
      'https://[::ffff:7f00:1]/hook',
      'must not point to ::ffff:7f00:1 (IPv4-mapped): callbacks go to public addresses only',
    ],
    ['https://0x7f000001/hook', 'must not point to 127.0.0.1 (loopback): callbacks go to public addresses only'],
    [`https://example.com/${'a'.repeat(2048)}`, 'must be at most 2048 characters'],
  ])('refuses %s: %s', (url, reason) => {
    expect(validateCallbackUrl(url, strict)).toEqual({ ok: false, reason });
  });

  it('allows http and private hosts when private targets are allowed, but never other schemes or credentials', () => {
    expect(validateCallbackUrl('http://127.0.0.1:3000/hook', relaxed).ok).toBe(true);
    expect(validateCallbackUrl('http://localhost:3000/hook', relaxed).ok).toBe(true);
    expect(validateCallbackUrl('ftp://127.0.0.1/hook', relaxed)).toEqual({
      ok: false,
      reason: 'must use https or http',
    });
    expect(validateCallbackUrl('http://a:b@127.0.0.1/hook', relaxed).ok).toBe(false);
  });
});

function lookupWith(resolve: HostResolver, policy = strict, options: { all?: boolean; family?: number } = {}) {
  const lookup = createGuardedLookup({ ...policy, resolve });
  return new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>(
    (done) => lookup('hooks.example.com', options, (error, address, family) => done({ error, address, family })),
  );
}

describe('createGuardedLookup', () => {
  const publicAnswer: HostResolver = async () => [{ address: '93.184.216.34', family: 4 }];

  it('passes public addresses through, one or all as asked', async () => {
    expect(await lookupWith(publicAnswer)).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect(await lookupWith(publicAnswer, strict, { all: true })).toEqual({
      error: null,
      address: [{ address: '93.184.216.34', family: 4 }],
      family: undefined,
    });
  });

  it('refuses a name that resolves to loopback, or to any private address among public ones', async () => {
    const loopback = await lookupWith(async () => [{ address: '127.0.0.1', family: 4 }]);
    expect(loopback.error).toBeInstanceOf(WebhookTargetRefusedError);
    expect(loopback.error?.message).toBe(
      'hooks.example.com resolves to 127.0.0.1 (loopback), which is not a public address',
    );

    const mixed = await lookupWith(
      async () => [
        { address: '93.184.216.34', family: 4 },
        { address: 'fd12::1', family: 6 },
      ],
      strict,
      { all: true },
    );
    expect(mixed.error?.message).toBe(
      'hooks.example.com resolves to fd12::1 (unique local), which is not a public address',
    );
  });

  it('lets private addresses through when allowed', async () => {
    const result = await lookupWith(async () => [{ address: '127.0.0.1', family: 4 }], relaxed);
    expect(result).toEqual({ error: null, address: '127.0.0.1', family: 4 });
  });

  it('keeps to the family asked for and reports names without addresses', async () => {
    const both: HostResolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ];
    expect((await lookupWith(both, strict, { family: 6 })).address).toBe('2606:2800:220:1::1');
    const none = await lookupWith(async () => [], strict);
    expect(none.error?.code).toBe('ENOTFOUND');
  });

  it('passes resolver failures on', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.com'), { code: 'ENOTFOUND' });
    const result = await lookupWith(async () => Promise.reject(failure));
    expect(result.error).toBe(failure);
  });
});
