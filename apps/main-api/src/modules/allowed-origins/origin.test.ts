import { describe, expect, it } from 'vitest';
import { checkOrigin } from './origin.js';

describe('checkOrigin', () => {
  it.each([
    ['https://shop.example', 'https://shop.example'],
    ['https://shop.example/', 'https://shop.example'],
    ['HTTPS://Shop.Example:443', 'https://shop.example'],
    ['https://shop.example:8443', 'https://shop.example:8443'],
    ['https://duka.xn--fiqs8s', 'https://duka.xn--fiqs8s'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['https://203.0.113.5', 'https://203.0.113.5'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://shop.localhost:5173', 'http://shop.localhost:5173'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
  ])('takes %s as %s', (input, origin) => {
    expect(checkOrigin(input)).toEqual({ ok: true, origin });
  });

  it.each([
    ['http://shop.example', 'must start with https:// (http:// only for localhost)'],
    ['http://10.0.0.5', 'must start with https:// (http:// only for localhost)'],
    ['ftp://shop.example', 'must start with https://'],
    ['javascript:alert(1)', 'must start with https://'],
    ['shop.example', 'must be an origin such as https://shop.example'],
    ['https://', 'must be an origin such as https://shop.example'],
    ['https://shop.example/checkout', 'must be an origin without a path, such as https://shop.example'],
    ['https://*.shop.example', 'must name one origin: wildcards are not allowed'],
    ['*', 'must name one origin: wildcards are not allowed'],
    [
      'https://shop.example?x=1',
      'must be an origin such as https://shop.example, without credentials, query or fragment',
    ],
    [
      'https://shop.example#top',
      'must be an origin such as https://shop.example, without credentials, query or fragment',
    ],
    [
      'https://me:pw@shop.example',
      'must be an origin such as https://shop.example, without credentials, query or fragment',
    ],
    ['https://shop.example; script-src https://evil.example', 'must be an origin such as https://shop.example'],
    [
      'https://shop.example;script-src',
      'must have a host name of letters, digits, hyphens and dots, or an IPv4 address',
    ],
    [
      'https://shop.example,evil.example',
      'must have a host name of letters, digits, hyphens and dots, or an IPv4 address',
    ],
    ["https://shop'.example", 'must have a host name of letters, digits, hyphens and dots, or an IPv4 address'],
    ['https://shop_1.example', 'must have a host name of letters, digits, hyphens and dots, or an IPv4 address'],
    ['https://shop.example.', 'must have a host name of letters, digits, hyphens and dots, or an IPv4 address'],
    ['https://[2001:db8::1]', 'must have a host name of letters, digits, hyphens and dots, or an IPv4 address'],
    ['http://[::1]:8080', 'must start with https:// (http:// only for localhost)'],
    ['null', 'must be an origin such as https://shop.example'],
  ])('refuses %s', (input, reason) => {
    expect(checkOrigin(input)).toEqual({ ok: false, reason });
  });
});
