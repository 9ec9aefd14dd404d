// What the rest of backend-api uses of the verification module: the app its routes and settings; the hosted page
// (./hosted-page) and the capture by API (./documents), which depend on this module and never the other way, the
// sessions, their view and their lifecycle.

export {
  commitMove,
  handOverSession,
  type LifecycleOptions,
  lastMovedTo,
  moveSession,
  SESSION_NOT_FOUND,
} from '@platform/verification-lifecycle';
export { runUntilNothingDue, workThroughDueSessions } from './due-sessions.js';
export { verificationMetricsOf } from './metrics.js';
export { verificationRoutes } from './routes.js';
export { VerificationSessionResponseSchema } from './schemas.js';
export { readAnySession, readOwnerSession, sessionView } from './service.js';
export { verificationSettingsOf } from './settings.js';
