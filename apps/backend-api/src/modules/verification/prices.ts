import type { DatabaseExecutor, VerificationType } from '@platform/db';
import { verificationPrices } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';

/** The service's default price per verification type, whole KES (configuration). */
export type VerificationPriceList = Readonly<Record<VerificationType, number>>;

/** What a session of `type` costs the organization: its own price when it has one, else the default. */
export async function verificationPriceOf(
  db: DatabaseExecutor,
  organizationId: string,
  type: VerificationType,
  defaults: VerificationPriceList,
): Promise<number> {
  const [override] = await db
    .select({ price: verificationPrices.price })
    .from(verificationPrices)
    .where(and(eq(verificationPrices.organizationId, organizationId), eq(verificationPrices.type, type)));
  return override?.price ?? defaults[type];
}
