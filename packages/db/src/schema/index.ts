// The whole database schema: the tables, one file per owner (packages/db/table-owners.cjs says whose each is).
// drizzle-kit, the client's relational schema and the tests read this file; shipped code imports the file of the
// table it owns, `@platform/db/schema/<file>` (docs/decisions.md#one-owner-per-table).

export * from './allowed-origins.js';
export * from './api-keys.js';
export * from './audit-events.js';
export * from './avatar-uploads.js';
export * from './billing-documents.js';
export * from './credit-balance-entries.js';
export * from './dashboard.js';
export * from './drive.js';
export * from './idempotency.js';
export * from './mail-subscriptions.js';
export * from './memberships.js';
export * from './notifications.js';
export * from './organization-invitations.js';
export * from './organizations.js';
export * from './payments.js';
export * from './review-console.js';
export * from './users.js';
export * from './verification.js';
export * from './verification-review-claims.js';
export * from './wallets.js';
export * from './webhooks.js';
