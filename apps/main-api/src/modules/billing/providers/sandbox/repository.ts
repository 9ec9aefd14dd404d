import type { DatabaseExecutor } from '@platform/db';
import { users } from '@platform/db/schema/users';
import { eq } from 'drizzle-orm';

/** The email of a user (the payer), or undefined when there is no such user. */
export async function findUserEmail(db: DatabaseExecutor, userId: string): Promise<string | undefined> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user?.email;
}
