import { relations } from 'drizzle-orm';
import { apiKeys } from './api-keys.js';
import { avatarUploads } from './avatar-uploads.js';
import { driveFolders } from './drive.js';
import { creditBalanceEntries, mailSubscriptionChanges, mailSubscriptions } from './mail-subscriptions.js';
import { notifications } from './notifications.js';
import { memberships, organizations } from './organizations.js';
import { users } from './users.js';

// Relations drive drizzle's relational queries (`db.query.users.findFirst({ with: { memberships: true } })`).
// They add nothing to the database itself.

export const usersRelations = relations(users, ({ many }) => ({
  memberships: many(memberships),
  notifications: many(notifications),
  avatarUploads: many(avatarUploads),
}));

export const organizationsRelations = relations(organizations, ({ many, one }) => ({
  memberships: many(memberships),
  apiKeys: many(apiKeys),
  driveFolders: many(driveFolders),
  mailSubscription: one(mailSubscriptions),
}));

export const membershipsRelations = relations(memberships, ({ one }) => ({
  organization: one(organizations, { fields: [memberships.organizationId], references: [organizations.id] }),
  user: one(users, { fields: [memberships.userId], references: [users.id] }),
}));

export const apiKeysRelations = relations(apiKeys, ({ one }) => ({
  organization: one(organizations, { fields: [apiKeys.organizationId], references: [organizations.id] }),
  createdBy: one(users, { fields: [apiKeys.createdByUserId], references: [users.id] }),
}));

export const notificationsRelations = relations(notifications, ({ one }) => ({
  user: one(users, { fields: [notifications.userId], references: [users.id] }),
  organization: one(organizations, { fields: [notifications.organizationId], references: [organizations.id] }),
}));

export const avatarUploadsRelations = relations(avatarUploads, ({ one }) => ({
  user: one(users, { fields: [avatarUploads.userId], references: [users.id] }),
}));

export const driveFoldersRelations = relations(driveFolders, ({ one }) => ({
  organization: one(organizations, { fields: [driveFolders.organizationId], references: [organizations.id] }),
}));

export const mailSubscriptionsRelations = relations(mailSubscriptions, ({ one, many }) => ({
  organization: one(organizations, { fields: [mailSubscriptions.organizationId], references: [organizations.id] }),
  changes: many(mailSubscriptionChanges),
}));

export const mailSubscriptionChangesRelations = relations(mailSubscriptionChanges, ({ one }) => ({
  subscription: one(mailSubscriptions, {
    fields: [mailSubscriptionChanges.subscriptionId],
    references: [mailSubscriptions.id],
  }),
}));

export const creditBalanceEntriesRelations = relations(creditBalanceEntries, ({ one }) => ({
  organization: one(organizations, { fields: [creditBalanceEntries.organizationId], references: [organizations.id] }),
}));
