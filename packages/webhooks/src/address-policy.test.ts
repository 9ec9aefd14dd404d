import { describe, expect, it } from 'vitest';
import { isPublicAddress, nonPublicRangeOf } from './address-policy.js';

describe('nonPublicRangeOf', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['64:ff9b::a00:1', 'IPv4-translated'],
    ['2002:a00:1::1', '6to4'],
    ['2001:db8::1', 'reserved'],
    ['fd00::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'reserved'],
    ['localhost', 'not an IP address'],
  ])('%s is %s', (address, range) => {
    expect(nonPublicRangeOf(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
  ])('%s is public', (address) => {
    expect(nonPublicRangeOf(address)).toBeNull();
    expect(isPublicAddress(address)).toBe(true);
  });
});
