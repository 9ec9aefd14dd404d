// What counts as an allowed origin (docs/decisions.md#allowed-origins): the exact scheme, host and port of a web
// page, written as the browser writes `location.origin`. It ends up in the hosted page's CSP `frame-ancestors` and as
// the target of its postMessage calls, so only what the URL parser gives back as an origin is ever stored.

export type OriginCheck = { ok: true; origin: string } | { ok: false; reason: string };

export const ORIGIN_EXAMPLE = 'https://shop.example';

/**
 * Hosts that only ever mean the browser's own machine: a developer's front end on http://localhost:3000 may use the
 * SDK before it has a certificate, and no one else's page can have such an origin.
 */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '127.0.0.1';
}

/**
 * A normalised origin as a CSP host-source may write it: letters, digits and hyphens in dot-separated labels, and a
 * port. The URL parser lets `;`, `,` and quotes through in a host, which in a `frame-ancestors` header would start
 * another directive; IPv6 literals have no CSP syntax at all.
 */
const CSP_SAFE_ORIGIN = /^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*(:[0-9]{1,5})?$/;

/**
 * The origin `input` names, normalised as browsers compare origins (lower-case host, punycode, no default port), or
 * why it is not one: `https://host[:port]`, or `http://` for a loopback host only (localhost, *.localhost, 127.0.0.1); no path (a single trailing `/`
 * aside), query, fragment, credentials or wildcard.
 */
export function checkOrigin(input: string): OriginCheck {
  const refuse = (reason: string): OriginCheck => ({ ok: false, reason });
  if (input.includes('*')) return refuse('must name one origin: wildcards are not allowed');
  if (/[?#@]/.test(input)) {
    return refuse(`must be an origin such as ${ORIGIN_EXAMPLE}, without credentials, query or fragment`);
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse(`must be an origin such as ${ORIGIN_EXAMPLE}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('must start with https://');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return refuse('must start with https:// (http:// only for localhost)');
  }
  if (url.pathname !== '/') return refuse(`must be an origin without a path, such as ${ORIGIN_EXAMPLE}`);
  if (!CSP_SAFE_ORIGIN.test(url.origin)) {
    return refuse('must have a host name of letters, digits, hyphens and dots, or an IPv4 address');
  }
  return { ok: true, origin: url.origin };
}
