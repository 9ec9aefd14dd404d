import { BlockList, isIP } from 'node:net';

type Family = 'ipv4' | 'ipv6';

// Ranges a callback must never reach: the service's own host and network, cloud metadata (169.254.169.254),
// and addresses that are not unicast on the public internet. IANA special-purpose registries, RFC 6890.
const NON_PUBLIC_RANGES: { name: string; family: Family; subnets: [string, number][] }[] = [
  { name: 'unspecified', family: 'ipv4', subnets: [['0.0.0.0', 8]] },
  {
    name: 'private',
    family: 'ipv4',
    subnets: [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
    ],
  },
  { name: 'carrier-grade NAT', family: 'ipv4', subnets: [['100.64.0.0', 10]] },
  { name: 'loopback', family: 'ipv4', subnets: [['127.0.0.0', 8]] },
  { name: 'link-local', family: 'ipv4', subnets: [['169.254.0.0', 16]] },
  {
    name: 'reserved',
    family: 'ipv4',
    subnets: [
      ['192.0.0.0', 24], // IETF protocol assignments
      ['192.0.2.0', 24], // documentation
      ['192.88.99.0', 24], // 6to4 relay
      ['198.18.0.0', 15], // benchmarking
      ['198.51.100.0', 24], // documentation
      ['203.0.113.0', 24], // documentation
      ['240.0.0.0', 4], // future use and broadcast
    ],
  },
  { name: 'multicast', family: 'ipv4', subnets: [['224.0.0.0', 4]] },
  { name: 'unspecified', family: 'ipv6', subnets: [['::', 128]] },
  { name: 'loopback', family: 'ipv6', subnets: [['::1', 128]] },
  { name: 'IPv4-mapped', family: 'ipv6', subnets: [['::ffff:0:0', 96]] },
  {
    name: 'IPv4-translated',
    family: 'ipv6',
    subnets: [
      ['64:ff9b::', 96],
      ['64:ff9b:1::', 48],
    ],
  },
  // 6to4 and Teredo carry an IPv4 address inside, which could be a private one.
  { name: '6to4', family: 'ipv6', subnets: [['2002::', 16]] },
  {
    name: 'reserved',
    family: 'ipv6',
    subnets: [
      ['::', 8],
      ['100::', 64],
      ['2001::', 23],
      ['2001:db8::', 32],
    ],
  },
  { name: 'unique local', family: 'ipv6', subnets: [['fc00::', 7]] },
  {
    name: 'link-local',
    family: 'ipv6',
    subnets: [
      ['fe80::', 10],
      ['fec0::', 10],
    ],
  },
  { name: 'multicast', family: 'ipv6', subnets: [['ff00::', 8]] },
];

const namedBlockLists = NON_PUBLIC_RANGES.map(({ name, family, subnets }) => {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, family);
  return { name, family, list };
});

// Only global unicast is public in IPv6; everything outside 2000::/3 is refused whatever its name.
const globalUnicastV6 = new BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');

/**
 * Why an IP address is not a public internet address ('loopback', 'private', ...), or null when it is public.
 * Anything that is not a valid IP address is 'not an IP address'.
 */
export function nonPublicRangeOf(address: string): string | null {
  // A zone index (fe80::1%eth0) only occurs on link-local addresses; the address itself decides.
  const bare = address.includes('%') ? address.slice(0, address.indexOf('%')) : address;
  const version = isIP(bare);
  if (version === 0) return 'not an IP address';
  const family: Family = version === 4 ? 'ipv4' : 'ipv6';
  for (const { name, family: listFamily, list } of namedBlockLists) {
    if (listFamily === family && list.check(bare, family)) return name;
  }
  if (family === 'ipv6' && !globalUnicastV6.check(bare, 'ipv6')) return 'reserved';
  return null;
}

export function isPublicAddress(address: string): boolean {
  return nonPublicRangeOf(address) === null;
}
