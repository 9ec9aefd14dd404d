import { randomBytes } from 'node:crypto';
import { startFakeSmileId } from '@platform/backend-api/fake-smile-id';

// The local start's Smile ID (docs/decisions.md#fake-smile-id): with VERIFICATION_PROVIDER_KYC=smile_id, or a
// VERIFICATION_DECISIONS rule naming smile_id and no SMILE_ID_BASE_URL of the caller's, the fake of backend-api's
// tests runs in this process and decides kyc sessions (result 0810: verified) with signed callbacks, so a newcomer
// sees automated decisions without a Smile ID account.

export interface LocalSmileId {
  url: string;
  partnerId: string;
  apiKey: string;
  close(): Promise<void>;
}

/** Whether this run uses the fake Smile ID. */
export function wantsFakeSmileId(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.VERIFICATION_PROVIDER_KYC?.trim() === 'smile_id') return true;
  return /smile_id/.test(env.VERIFICATION_DECISIONS ?? '') && !env.SMILE_ID_BASE_URL?.trim();
}

/** Starts the fake on a free port of this machine, with a partner id and API key of its own. */
export async function startLocalSmileId(): Promise<LocalSmileId> {
  const partnerId = '000';
  const apiKey = randomBytes(24).toString('base64url');
  const fake = await startFakeSmileId({ partnerId, apiKey, log: (line) => console.log(line) });
  return { url: fake.url, partnerId, apiKey, close: () => fake.close() };
}

/** backend-api's Smile ID variables for the fake (the caller's own SMILE_ID_* win). */
export function smileIdEnv(smileId: LocalSmileId | undefined, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (smileId === undefined) return {};
  return {
    SMILE_ID_PARTNER_ID: env.SMILE_ID_PARTNER_ID || smileId.partnerId,
    SMILE_ID_API_KEY: env.SMILE_ID_API_KEY || smileId.apiKey,
    SMILE_ID_BASE_URL: env.SMILE_ID_BASE_URL || smileId.url,
  };
}
