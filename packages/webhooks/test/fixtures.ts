import type { Database } from '@platform/db';
import { organizations } from '@platform/db/schema';

/** A new organization; returns its id. */
export async function insertOrganization(db: Database, name = 'Webhook test organization'): Promise<string> {
  const [row] = await db.insert(organizations).values({ name }).returning({ id: organizations.id });
  if (row === undefined) throw new Error('Inserting the organization returned no row');
  return row.id;
}
