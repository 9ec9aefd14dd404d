// The whole database schema: the tables, one file per domain. drizzle-kit reads this file.

export * from './api-keys.js';
export * from './audit-events.js';
export * from './avatar-uploads.js';
export * from './billing-documents.js';
export * from './drive.js';
export * from './idempotency.js';
export * from './mail-subscriptions.js';
export * from './notifications.js';
export * from './organizations.js';
export * from './payments.js';
export * from './review-console.js';
export * from './users.js';
export * from './verification.js';
export * from './wallets.js';
export * from './webhooks.js';
