import type { DatabaseExecutor } from './client.js';
import type { NotificationType } from './enums.js';
import { memberships, notifications, organizations, users } from './schema/index.js';

export interface DemoData {
  userId: string;
  organizationId: string;
  otherUserId: string;
  otherOrganizationId: string;
}

// Fixed ids make the seed an upsert: running it again finds the same rows instead of adding new ones.
export const DEMO_USER_ID = 'user_demo';
export const DEMO_ORGANIZATION_ID = '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5a01';
export const OTHER_USER_ID = 'user_other';
export const OTHER_ORGANIZATION_ID = '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5a02';

const HOUR_MS = 60 * 60 * 1000;

interface DemoNotification {
  id: string;
  title: string;
  message: string;
  type: NotificationType;
  actionUrl: string | null;
  ageHours: number;
  read: boolean;
}

const demoNotifications: readonly DemoNotification[] = [
  {
    id: '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5b01',
    title: 'Welcome to Wanjiku Ventures',
    message: 'Your organization is ready. Invite your team and create API keys from the dashboard.',
    type: 'success',
    actionUrl: null,
    ageHours: 72,
    read: true,
  },
  {
    id: '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5b02',
    title: 'Card payment failed',
    message: 'A payment of 2,500 KES could not be completed. No money was taken.',
    type: 'error',
    actionUrl: null,
    ageHours: 48,
    read: true,
  },
  {
    id: '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5b03',
    title: 'Wallet balance is low',
    message: 'Your wallet holds 150 KES. Top up to keep running verification sessions.',
    type: 'warning',
    actionUrl: null,
    ageHours: 5,
    read: false,
  },
  {
    id: '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5b04',
    title: 'Verify your identity',
    message: 'Complete identity verification to unlock live API keys.',
    type: 'info',
    actionUrl: '/account/verification',
    ageHours: 1,
    read: false,
  },
];

/**
 * Demo users, organizations and notifications for local use. Idempotent: rows that already exist are left
 * as they are (including profile edits made since), so it is safe to run on every start. API keys are not
 * created here because a secret can only be shown when it is created; callers use createApiKey (@platform/api-keys).
 */
export async function seedDemoData(db: DatabaseExecutor, options: { now?: Date } = {}): Promise<DemoData> {
  const now = options.now ?? new Date();
  await db.transaction(async (tx) => {
    await tx
      .insert(users)
      .values([
        {
          id: DEMO_USER_ID,
          email: 'demo@example.com',
          firstName: 'Amina',
          lastName: 'Wanjiku',
          phone: '+254712345678',
          dob: '1992-04-18',
          kycStatus: 'unverified',
        },
        {
          id: OTHER_USER_ID,
          email: 'other@example.com',
          firstName: 'Brian',
          lastName: 'Otieno',
          phone: '+254733123456',
          kycStatus: 'verified',
        },
      ])
      .onConflictDoNothing();
    await tx
      .insert(organizations)
      .values([
        { id: DEMO_ORGANIZATION_ID, name: 'Wanjiku Ventures' },
        { id: OTHER_ORGANIZATION_ID, name: 'Otieno Logistics' },
      ])
      .onConflictDoNothing();
    await tx
      .insert(memberships)
      .values([
        { organizationId: DEMO_ORGANIZATION_ID, userId: DEMO_USER_ID, role: 'owner' },
        { organizationId: OTHER_ORGANIZATION_ID, userId: OTHER_USER_ID, role: 'owner' },
      ])
      .onConflictDoNothing();
    await tx
      .insert(notifications)
      .values(
        demoNotifications.map((notification) => {
          const createdAt = new Date(now.getTime() - notification.ageHours * HOUR_MS);
          return {
            id: notification.id,
            userId: DEMO_USER_ID,
            organizationId: DEMO_ORGANIZATION_ID,
            title: notification.title,
            message: notification.message,
            type: notification.type,
            actionUrl: notification.actionUrl,
            createdAt,
            readAt: notification.read ? new Date(createdAt.getTime() + HOUR_MS) : null,
          };
        }),
      )
      .onConflictDoNothing();
  });
  return {
    userId: DEMO_USER_ID,
    organizationId: DEMO_ORGANIZATION_ID,
    otherUserId: OTHER_USER_ID,
    otherOrganizationId: OTHER_ORGANIZATION_ID,
  };
}
