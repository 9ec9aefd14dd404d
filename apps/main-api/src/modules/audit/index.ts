// What the rest of main-api uses of the audit module: recording a change in the same transaction as the change,
// and the audit log's route and schemas for the app.

export { auditRoutes } from './routes.js';
export { type AuditEventView, auditSharedSchemas } from './schemas.js';
export {
  type AuditContext,
  type AuditedChange,
  addAuditEvent,
  listAuditEvents,
  PLATFORM_JOB,
  recordAuditEvent,
} from './service.js';
