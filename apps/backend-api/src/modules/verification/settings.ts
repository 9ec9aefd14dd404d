import { randomBytes } from 'node:crypto';
import type { VerificationRetentionBounds } from '@platform/organizations';
import type { BackendApiConfig } from '../../config.js';
import type { DecisionSettings } from './decisions/index.js';
import type { VerificationPriceList } from './service.js';

/** Everything the verification routes, the expiry and retention jobs and the hosted page take from configuration. */
export interface VerificationSettings extends DecisionSettings {
  /** `{verify_url}` without a trailing slash. */
  verifyUrl: string;
  prices: VerificationPriceList;
  /** Whole KES a test wallet first used by a session starts with (docs/decisions.md#test-credit). */
  testWalletCredit: number;
  sessionTtlMs: number;
  expiryIntervalMs: number;
  /** Days after a final status until documents and submitted details are deleted: the default and its bounds. */
  retention: VerificationRetentionBounds;
  /** How often this instance runs the retention job; 0: never here. */
  retentionIntervalMs: number;
  platformOrganizationId: string | undefined;
  allowPrivateCallbackTargets: boolean;
  formSecret: string;
}

const HOUR = 60 * 60 * 1000;

export function verificationSettingsOf(config: BackendApiConfig): VerificationSettings {
  const { verification } = config;
  return {
    verifyUrl: (verification.verifyUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, ''),
    prices: verification.prices,
    testWalletCredit: config.testWalletCredit,
    sessionTtlMs: verification.sessionTtlHours * HOUR,
    expiryIntervalMs: verification.expiryIntervalMs,
    retention: verification.retention,
    retentionIntervalMs: verification.retentionIntervalMs,
    platformOrganizationId: config.platformOrganizationId,
    allowPrivateCallbackTargets: config.webhooks.allowPrivateTargets,
    liveSandbox: verification.liveSandbox,
    decisions: verification.decisions,
    // A random secret works for one process (the local start); instances behind a load balancer must share one.
    formSecret: verification.hostedPageSecret ?? randomBytes(32).toString('base64url'),
  };
}
