// @platform/verify-web: opens a session's hosted verification page from a web app and reports what happens there
// (docs/decisions.md#front-end-sdk).
import { type StartVerificationOptions, startVerificationIn, type VerificationHandle } from './start.js';

export { type FinalStatus, finalStatuses, type VerificationEvent } from './events.js';
export type { StartVerificationOptions, VerificationHandle, VerificationMode } from './start.js';

/**
 * Opens `verificationUrl` (the `verificationUrl` of a session your server created) in this tab, a popup or an
 * iframe, and calls `onEvent` with what the hosted page reports. Throws a TypeError for a URL that is not http(s),
 * an unknown mode, or embed without a container.
 */
export function startVerification(verificationUrl: string, options: StartVerificationOptions): VerificationHandle {
  return startVerificationIn(window, verificationUrl, options);
}
