/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { VerificationSession } from '@platform/db';
import { cspHashOf, InlineScript, unescapedLiteral } from '@platform/templates';

// The hosted page's side of the front-end SDK (docs/decisions.md#front-end-sdk): who may frame the page, whether this
// view of it reports to the page that opened it, and the one small script that does. Everything else the page does
// stays plain HTML that works without JavaScript.

const sdkModes = ['popup', 'embed'] as const;
type SdkMode = (typeof sdkModes)[number];

/** A page opened by the SDK from an allowed origin: where its events go, and how (opener or parent). */
export interface SdkTarget {
  mode: SdkMode;
  origin: string;
}

/** The events the page posts; the SDK (packages/verify-web) reads exactly these shapes. */
export type SdkEvent =
  | { type: 'verification.submitted' }
  | { type: 'verification.completed'; status: 'verified' | 'rejected' | 'expired' | 'canceled' }
  | { type: 'verification.closed' };

/**
 * An origin as main-api stores it (allowed-origins/origin.ts). Checked again before an origin goes into a header, so
 * a row written some other way cannot add a directive to the page's CSP.
 */
const CSP_SAFE_ORIGIN = /^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*(:[0-9]{1,5})?$/;

/** The origins of `allowed` that may appear in the page's headers. */
export function usableOrigins(allowed: readonly string[]): string[] {
  return allowed.filter((origin) => CSP_SAFE_ORIGIN.test(origin));
}

/**
 * The SDK's mode and origin from the page's URL (`?sdk=popup|embed&origin=<origin>`), when the origin is one the
 * session's organization allows in the session's environment; otherwise none, and the page reports to no one.
 */
export function sdkTargetOf(
  query: { sdk?: string | undefined; origin?: string | undefined },
  allowed: readonly string[],
): SdkTarget | undefined {
  const mode = sdkModes.find((candidate) => candidate === query.sdk);
  const { origin } = query;
  if (mode === undefined || origin === undefined || !usableOrigins(allowed).includes(origin)) return undefined;
  return { mode, origin };
}

/**
 * What the page says to the SDK as it shows the session: `submitted` right after the person submitted, `completed`
 * with a final status, nothing otherwise (the declined page says `closed` itself).
 */
export function sessionPageEvent(session: VerificationSession, justSubmitted: boolean): SdkEvent | undefined {
  const { status } = session;
  if (status === 'verified' || status === 'rejected' || status === 'expired' || status === 'canceled') {
    return { type: 'verification.completed', status };
  }
  if (status === 'processing' && justSubmitted) return { type: 'verification.submitted' };
  return undefined;
}

/**
 * Posts the page's event to its opener (popup) or parent (embed), to the one origin named, never `*`: a page that
 * has navigated elsewhere, or a frame of another origin, gets nothing. It is the only script of the page, always the
 * same text, allowed by its hash; the event travels in a meta element.
 */
const EVENT_SCRIPT = unescapedLiteral`(function(){var m=document.querySelector('meta[name="verification-event"]');if(!m)return;var d=JSON.parse(m.getAttribute('content'));var t=d.mode==='popup'?window.opener:window.parent;if(t&&t!==window)t.postMessage(d.event,d.origin);})();`;

/** The CSP source that allows EVENT_SCRIPT and nothing else. */
export const EVENT_SCRIPT_SOURCE = cspHashOf(EVENT_SCRIPT);

/** What goes into the page's head for the SDK: the event, and the script that posts it. */
export function SdkEventHead({ target, event }: { target: SdkTarget; event: SdkEvent }) {
  const data = JSON.stringify({ mode: target.mode, origin: target.origin, event });
  return (
    <>
      <meta name="verification-event" content={data} />
      <InlineScript source={EVENT_SCRIPT} />
    </>
  );
}
