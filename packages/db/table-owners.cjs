// One owner per table (docs/decisions.md#one-owner-per-table): each schema file (packages/db/src/schema/<file>.ts,
// imported alone as `@platform/db/schema/<file>`) belongs to one module or package. Only the owner's repository
// files (repository.ts, <name>-repository.ts) import it; other code reads and writes its rows through the owner's
// index.ts. A table both services need has a package, `publishedIn`, whose repository holds the statements the
// other service runs (its index.ts exports them); its owner may use them too. .dependency-cruiser.cjs makes a rule
// of each entry.
/** @type {Record<string, { owner: string, publishedIn?: string }>} */
module.exports = {
  'allowed-origins': {
    owner: 'apps/main-api/src/modules/allowed-origins',
    publishedIn: 'packages/organizations', // the hosted page's frame-ancestors (backend-api)
  },
  'api-keys': {
    owner: 'apps/main-api/src/modules/api-keys',
    publishedIn: 'packages/api-keys', // key creation and authentication, both services; the operator commands
  },
  'audit-events': {
    owner: 'apps/main-api/src/modules/audit',
    publishedIn: 'packages/organizations', // an organization's activation, and reads of verified data, recorded by either service
  },
  'avatar-uploads': { owner: 'apps/main-api/src/modules/accounts' },
  // Billing's documents and payments belong to the billing module as a whole: its sub-modules' statements join
  // them (a payment with its receipt and invoice) in one round trip.
  'billing-documents': { owner: 'apps/main-api/src/modules/billing' },
  payments: { owner: 'apps/main-api/src/modules/billing' },
  dashboard: { owner: 'apps/main-api/src/modules/dashboard' },
  'credit-balance-entries': { owner: 'apps/main-api/src/modules/billing/subscriptions' },
  'mail-subscriptions': {
    owner: 'apps/main-api/src/modules/billing/subscriptions',
    publishedIn: 'packages/mail-subscriptions', // the plan a drive quota reads (backend-api)
  },
  drive: { owner: 'apps/backend-api/src/modules/drive' },
  idempotency: { owner: 'packages/idempotency' },
  memberships: {
    owner: 'apps/main-api/src/modules/organizations',
    publishedIn: 'packages/organizations', // the members a notification goes to (@platform/notifications)
  },
  notifications: {
    owner: 'apps/main-api/src/modules/notifications',
    publishedIn: 'packages/notifications', // the notifications both services create
  },
  // An invitation is a pending member: the organizations module owns it with the memberships (its retirement revokes
  // them); the invitations module's routes and service run its statements through organizations' index.ts.
  'organization-invitations': { owner: 'apps/main-api/src/modules/organizations' },
  organizations: {
    owner: 'apps/main-api/src/modules/organizations',
    publishedIn: 'packages/organizations', // what backend-api (operator commands, wallet, hosted page) reads
  },
  'review-console': { owner: 'apps/main-api/src/modules/console-sessions' },
  users: {
    owner: 'apps/main-api/src/modules/accounts',
    publishedIn: 'packages/accounts', // the KYC status a verification decision sets (both services)
  },
  verification: {
    owner: 'apps/backend-api/src/modules/verification',
    publishedIn: 'packages/verification-lifecycle', // a session's moves, and main-api's manual reviews
  },
  // A reviewer's claim decides who may decide a session waiting for manual review: the lifecycle's review queries
  // join it with the sessions, and main-api's reviews module runs them through the package's index.ts.
  'verification-review-claims': { owner: 'packages/verification-lifecycle' },
  wallets: { owner: 'packages/ledger' },
  webhooks: { owner: 'packages/webhooks' },
};
