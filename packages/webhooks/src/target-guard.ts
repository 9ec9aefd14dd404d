import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { nonPublicRangeOf } from './address-policy.js';

/** A callback target refused by policy (not https, or not a public address). Retrying cannot help. */
export class WebhookTargetRefusedError extends Error {
  override readonly name = 'WebhookTargetRefusedError';
}

/** Resolves a host name to every address it has, like `dns.lookup(hostname, { all: true })`. */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

export interface TargetPolicy {
  /** Allow http and private, loopback and link-local targets (local runs and tests only). */
  allowPrivateTargets: boolean;
}

export type CallbackUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

/**
 * What can be said about a callback URL without resolving it: an absolute https URL (http too when private
 * targets are allowed), without credentials, whose host is not a literal private address or `localhost`.
 * Addresses behind a host name are checked when the connection is made (see `createGuardedLookup`).
 */
export function validateCallbackUrl(value: string, policy: TargetPolicy): CallbackUrlCheck {
  if (value.length > MAX_URL_LENGTH) return { ok: false, reason: `must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'must be an absolute URL' };
  }
  const allowedProtocols = policy.allowPrivateTargets ? ['https:', 'http:'] : ['https:'];
  if (!allowedProtocols.includes(url.protocol)) {
    return { ok: false, reason: policy.allowPrivateTargets ? 'must use https or http' : 'must use https' };
  }
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'must not contain a user name or password' };
  if (url.hostname === '') return { ok: false, reason: 'must name a host' };
  if (policy.allowPrivateTargets) return { ok: true, url };

  const host = hostOf(url);
  if (isIP(host) !== 0) {
    const range = nonPublicRangeOf(host);
    if (range !== null) {
      return { ok: false, reason: `must not point to ${host} (${range}): callbacks go to public addresses only` };
    }
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    return { ok: false, reason: 'must not point to localhost' };
  }
  return { ok: true, url };
}

/** The URL's host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * A `lookup` for node:http/https requests that refuses a host when any of its addresses is not public. It runs
 * when the socket connects and the socket connects to the addresses it approved, so a DNS answer that changes
 * between a check and the connection (DNS rebinding) cannot slip a private address through.
 */
export function createGuardedLookup(policy: TargetPolicy & { resolve?: HostResolver }): LookupFunction {
  const resolve = policy.resolve ?? systemResolver;
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (resolved) => {
        const family = typeof options.family === 'number' && options.family !== 0 ? options.family : undefined;
        const addresses: LookupAddress[] = resolved
          .filter((entry) => family === undefined || entry.family === family)
          .map((entry) => ({ address: entry.address, family: entry.family }));
        const first = addresses[0];
        if (first === undefined) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (!policy.allowPrivateTargets) {
          for (const { address } of addresses) {
            const range = nonPublicRangeOf(address);
            if (range !== null) {
              const reason = `${hostname} resolves to ${address} (${range}), which is not a public address`;
              callback(new WebhookTargetRefusedError(reason), '', 0);
              return;
            }
          }
        }
        if (options.all === true) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
