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
  const { partnerId, apiKey, ...smileId } = config.smileId;
  if (partnerId === undefined || apiKey === undefined) return undefined;
  return {
    partnerId,
    apiKey,
    baseUrl: smileId.baseUrl.replace(/\/+$/, ''),
    callbackUrl: smileId.callbackUrl ?? `${verifyUrl}${SMILE_ID_CALLBACK_PATH}`,
    reconcileAfterMs: smileId.reconcileAfterMs,
    fallbackAfterMs: smileId.fallbackAfterMs,
    timeoutMs: smileId.timeoutMs,
    intervalMs: smileId.jobIntervalMs,
    allowHttp: config.webhooks.allowPrivateTargets,
  };
}
