import type { DatabaseExecutor } from './client.js';
import type { MembershipRole, NotificationType } from './enums.js';
import { memberships, notifications, organizations, users } from './schema/index.js';

/** A demo user: its id (a token's `sub`) and address (a token's `email` claim). */
export interface DemoPerson {
  userId: string;
  email: string;
}

export interface DemoData {
  /** The demo organization's owner (also `roleUsers.owner`). */
  userId: string;
  organizationId: string;
  otherUserId: string;
  otherOrganizationId: string;
  /** The other organization's owner (`otherUserId` with its address). */
  otherUser: DemoPerson;
  /** One member of the demo organization per role; the owner is the demo user. */
  roleUsers: Record<MembershipRole, DemoPerson>;
  /** A user with a profile and no organization yet: can create one or accept an invitation. */
  newUser: DemoPerson;
  /** A user id with no profile row, as a person signing up for the first time (POST /v1/accounts creates it). */
  noProfileUser: DemoPerson;
}

// Fixed ids make the seed an upsert: running it again finds the same rows instead of adding new ones.
export const DEMO_USER_ID = 'user_demo';
const DEMO_USER_EMAIL = 'demo@example.com';
export const DEMO_ORGANIZATION_ID = '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5a01';
export const OTHER_USER_ID = 'user_other';
const OTHER_USER_EMAIL = 'other@example.com';
export const OTHER_ORGANIZATION_ID = '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5a02';

interface DemoProfile extends DemoPerson {
  firstName: string;
  lastName: string;
}

/** The demo organization's members besides its owner, one per role (docs/decisions.md#roles). */
const demoTeam: Record<Exclude<MembershipRole, 'owner'>, DemoProfile> = {
  admin: { userId: 'user_demo_admin', email: 'admin@example.com', firstName: 'Kevin', lastName: 'Mwangi' },
  developer: { userId: 'user_demo_developer', email: 'developer@example.com', firstName: 'Faith', lastName: 'Achieng' },
  billing: { userId: 'user_demo_billing', email: 'billing@example.com', firstName: 'Peter', lastName: 'Kamau' },
  member: { userId: 'user_demo_member', email: 'member@example.com', firstName: 'Grace', lastName: 'Njeri' },
  // The local start makes the demo organization the platform's own, so its reviewer decides live sessions.
  reviewer: { userId: 'user_demo_reviewer', email: 'reviewer@example.com', firstName: 'Amina', lastName: 'Hassan' },
  // Its finance member confirms the bank transfers paid to the platform, as the platform's finance staff would.
  finance: { userId: 'user_demo_finance', email: 'finance@example.com', firstName: 'Esther', lastName: 'Wambui' },
};

const newcomer: DemoProfile = {
  userId: 'user_newcomer',
  email: 'newcomer@example.com',
  firstName: 'Joseph',
  lastName: 'Kiprono',
};

/** Never inserted: the seed leaves this user without a profile. */
const signup: DemoPerson = { userId: 'user_signup', email: 'signup@example.com' };

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
    actionUrl: '/dashboard/team',
    ageHours: 72,
    read: true,
  },
  {
    id: '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5b02',
    title: 'Card payment failed',
    message: 'A payment of 2,500 KES could not be completed. No money was taken.',
    type: 'error',
    actionUrl: '/dashboard/billing',
    ageHours: 48,
    read: true,
  },
  {
    id: '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5b03',
    title: 'Wallet balance is low',
    message: 'Your wallet holds 150 KES. Top up to keep running verification sessions.',
    type: 'warning',
    actionUrl: '/dashboard/billing',
    ageHours: 5,
    read: false,
  },
  {
    id: '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6b5b04',
    // What every new organization's owners are told (docs/decisions.md#going-live); the demo organization has done it.
    title: 'Verify your business to go live',
    message: 'Complete the business verification to unlock live API keys and live top-ups. Test keys work now.',
    type: 'info',
    actionUrl: `/dashboard/activation?org=${DEMO_ORGANIZATION_ID}`,
    ageHours: 1,
    read: false,
  },
];

/**
 * Demo users, organizations and notifications for local use: the demo organization with one member per role, another
 * organization with its owner, a user with a profile and no organization, and a user id with no profile at all.
 * Idempotent: rows that already exist are left as they are (including profile edits and role changes made since),
 * so it is safe to run on every start. API keys are not created here because a secret can only be shown when it is
 * created; callers use createApiKey (@platform/api-keys).
 */
export async function seedDemoData(db: DatabaseExecutor, options: { now?: Date } = {}): Promise<DemoData> {
  const now = options.now ?? new Date();
  await db.transaction(async (tx) => {
    await tx
      .insert(users)
      .values([
        {
          id: DEMO_USER_ID,
          email: DEMO_USER_EMAIL,
          firstName: 'Amina',
          lastName: 'Wanjiku',
          phone: '+254712345678',
          dob: '1992-04-18',
          kycStatus: 'unverified',
        },
        {
          id: OTHER_USER_ID,
          email: OTHER_USER_EMAIL,
          firstName: 'Brian',
          lastName: 'Otieno',
          phone: '+254733123456',
          kycStatus: 'verified',
        },
        ...[...Object.values(demoTeam), newcomer].map(({ userId, email, firstName, lastName }) => ({
          id: userId,
          email,
          firstName,
          lastName,
        })),
      ])
      .onConflictDoNothing();
    await tx
      .insert(organizations)
      .values([
        // Activated, so the local start's live keys and top-ups work at once (docs/decisions.md#going-live).
        { id: DEMO_ORGANIZATION_ID, name: 'Wanjiku Ventures', activatedAt: now },
        { id: OTHER_ORGANIZATION_ID, name: 'Otieno Logistics', activatedAt: now },
      ])
      .onConflictDoNothing();
    await tx
      .insert(memberships)
      .values([
        { organizationId: DEMO_ORGANIZATION_ID, userId: DEMO_USER_ID, role: 'owner' },
        { organizationId: OTHER_ORGANIZATION_ID, userId: OTHER_USER_ID, role: 'owner' },
        ...Object.entries(demoTeam).map(([role, person]) => ({
          organizationId: DEMO_ORGANIZATION_ID,
          userId: person.userId,
          role: role as MembershipRole,
        })),
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
  const person = ({ userId, email }: DemoPerson): DemoPerson => ({ userId, email });
  return {
    userId: DEMO_USER_ID,
    organizationId: DEMO_ORGANIZATION_ID,
    otherUserId: OTHER_USER_ID,
    otherOrganizationId: OTHER_ORGANIZATION_ID,
    otherUser: { userId: OTHER_USER_ID, email: OTHER_USER_EMAIL },
    roleUsers: {
      owner: { userId: DEMO_USER_ID, email: DEMO_USER_EMAIL },
      admin: person(demoTeam.admin),
      developer: person(demoTeam.developer),
      billing: person(demoTeam.billing),
      member: person(demoTeam.member),
      reviewer: person(demoTeam.reviewer),
      finance: person(demoTeam.finance),
    },
    newUser: person(newcomer),
    noProfileUser: person(signup),
  };
}
