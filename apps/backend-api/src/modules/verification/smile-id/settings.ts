import type { BackendApiConfig } from '../../../config.js';

/** What Smile ID's decision source takes from configuration; undefined without Smile ID's credentials. */
export interface SmileIdSettings {
  partnerId: string;
  apiKey: string;
  baseUrl: string;
  callbackUrl: string;
  reconcileAfterMs: number;
  fallbackAfterMs: number;
  timeoutMs: number;
  intervalMs: number;
  /** A plain-http Smile ID and upload URL are allowed (a local fake): WEBHOOK_ALLOW_PRIVATE_TARGETS. */
  allowHttp: boolean;
}

export const SMILE_ID_CALLBACK_PATH = '/v1/providers/smile-id/callback';

/**
 * Smile ID's settings when its credentials are set (config.ts requires them for a smile_id rule); the callback URL
 * defaults to this service's public address, VERIFY_URL (the hosted page is served by this service too).
 */
export function smileIdSettingsOf(config: BackendApiConfig, verifyUrl: string): SmileIdSettings | undefined {
  if (config.SMILE_ID_PARTNER_ID === undefined || config.SMILE_ID_API_KEY === undefined) return undefined;
  return {
    partnerId: config.SMILE_ID_PARTNER_ID,
    apiKey: config.SMILE_ID_API_KEY,
    baseUrl: config.SMILE_ID_BASE_URL.replace(/\/+$/, ''),
    callbackUrl: config.SMILE_ID_CALLBACK_URL ?? `${verifyUrl}${SMILE_ID_CALLBACK_PATH}`,
    reconcileAfterMs: config.SMILE_ID_RECONCILE_AFTER_MS,
    fallbackAfterMs: config.SMILE_ID_FALLBACK_AFTER_MS,
    timeoutMs: config.SMILE_ID_TIMEOUT_MS,
    intervalMs: config.SMILE_ID_JOB_INTERVAL_MS,
    allowHttp: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
  };
}
