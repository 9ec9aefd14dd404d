// Allowed values of the text columns that carry a CHECK constraint. The schema builds its constraints from
// these lists, so the database and the TypeScript types cannot drift apart.

export const kycStatuses = ['unverified', 'pending', 'verified', 'rejected'] as const;
export type KycStatus = (typeof kycStatuses)[number];

export const membershipRoles = ['owner', 'admin', 'member'] as const;
export type MembershipRole = (typeof membershipRoles)[number];

export const apiKeyEnvironments = ['live', 'test'] as const;
export type ApiKeyEnvironment = (typeof apiKeyEnvironments)[number];

export const notificationTypes = ['info', 'warning', 'success', 'error'] as const;
export type NotificationType = (typeof notificationTypes)[number];
