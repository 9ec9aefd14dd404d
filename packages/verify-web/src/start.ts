import { readVerificationEvent, type VerificationEvent } from './events.js';

// How a verification is opened in each mode, and which messages count (docs/decisions.md#front-end-sdk). Written
// against the window it is given, so tests can hand it a fake one.

export type VerificationMode = 'redirect' | 'popup' | 'embed';

export interface StartVerificationOptions {
  /**
   * `redirect`: this tab goes to the verification (it comes back to the session's `returnUrl`; no events).
   * `popup`: a new window, with events; if the browser blocks it, this tab goes there as in `redirect`.
   * `embed`: an iframe in `container`, with events.
   * Events come only from pages of origins the organization allows (`allowedOrigins`); embed needs one too.
   */
  mode: VerificationMode;
  /** Called with each event of the hosted page (popup and embed). */
  onEvent?: (event: VerificationEvent) => void;
  /** embed: the element the iframe is added to; give it the size the verification should have. */
  container?: Element;
}

export interface VerificationHandle {
  /** The mode in use: `redirect` when a popup was blocked. */
  readonly mode: VerificationMode;
  /** Closes the popup or removes the iframe, and stops listening. No event follows. */
  close(): void;
}

/** How often a popup is checked for having been closed by the person. */
const CLOSED_CHECK_MS = 500;
const POPUP_NAME = 'verification';
const POPUP_FEATURES = 'popup,width=480,height=760';

export function startVerificationIn(
  win: Window,
  verificationUrl: string,
  { mode, onEvent, container }: StartVerificationOptions,
): VerificationHandle {
  const url = new URL(verificationUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError('verificationUrl must be an http(s) URL');
  }
  const redirect = (): VerificationHandle => {
    win.location.assign(url.href);
    return { mode: 'redirect', close() {} };
  };
  if (mode === 'redirect') return redirect();
  if (mode !== 'popup' && mode !== 'embed') throw new TypeError('mode must be redirect, popup or embed');
  if (mode === 'embed' && !container) throw new TypeError('embed mode needs a container element');

  // The hosted page posts only to this origin, and only when the organization allows it.
  const sdkUrl = new URL(url.href);
  sdkUrl.searchParams.set('sdk', mode);
  sdkUrl.searchParams.set('origin', win.location.origin);

  let timer: number | undefined;
  let frame: HTMLIFrameElement | undefined;
  let popup: Window | null = null;
  let open = true;

  // Only the page this call opened, at the verification's origin, with a documented shape.
  const onMessage = (message: MessageEvent) => {
    const source = popup ?? frame?.contentWindow;
    if (!open || message.origin !== url.origin || !source || message.source !== source) return;
    const event = readVerificationEvent(message.data);
    if (event) onEvent?.(event);
  };
  const stop = () => {
    open = false;
    win.removeEventListener('message', onMessage);
    if (timer !== undefined) win.clearInterval(timer);
  };

  // Listening before the page can load, so not even a quick first event is missed.
  win.addEventListener('message', onMessage);
  if (mode === 'popup') {
    popup = win.open(sdkUrl.href, POPUP_NAME, POPUP_FEATURES);
    if (!popup) {
      stop();
      return redirect();
    }
    const opened = popup;
    timer = win.setInterval(() => {
      if (!opened.closed) return;
      stop();
      onEvent?.({ type: 'verification.closed' });
    }, CLOSED_CHECK_MS);
  } else {
    frame = win.document.createElement('iframe');
    frame.src = sdkUrl.href;
    frame.title = 'Identity verification';
    frame.style.border = '0';
    frame.style.width = '100%';
    frame.style.height = '100%';
    container?.appendChild(frame);
  }

  return {
    mode,
    close() {
      if (!open) return;
      stop();
      popup?.close();
      frame?.remove();
    },
  };
}
