// What the rest of main-api uses of the audit module: recording a change in the same transaction as the change.

export { type AuditContext, type AuditedChange, PLATFORM_JOB, recordAuditEvent } from './service.js';
