import { randomBytes } from 'node:crypto';
import { ConfigError } from '@platform/http';
import type { BackendApiConfig } from '../../config.js';
import { type DecisionSettings, parseDecisionRules } from './decisions/index.js';
import type { VerificationPriceList } from './service.js';

/** Everything the verification routes, the expiry and retention jobs and the hosted page take from configuration. */
export interface VerificationSettings extends DecisionSettings {
  /** `{verify_url}` without a trailing slash. */
  verifyUrl: string;
  prices: VerificationPriceList;
  sessionTtlMs: number;
  expiryIntervalMs: number;
  /** Days after a final status until documents and submitted details are deleted. */
  retentionDays: number;
  /** How often this instance runs the retention job; 0: never here. */
  retentionIntervalMs: number;
  platformOrganizationId: string | undefined;
  allowPrivateCallbackTargets: boolean;
  formSecret: string;
}

const HOUR = 60 * 60 * 1000;

export function verificationSettingsOf(config: BackendApiConfig): VerificationSettings {
  const decisions = parseDecisionRules(config.VERIFICATION_DECISIONS, { liveSandbox: config.HOSTED_PAGE_LIVE_SANDBOX });
  if (!decisions.ok) {
    throw new ConfigError([{ name: 'VERIFICATION_DECISIONS', message: `VERIFICATION_DECISIONS: ${decisions.reason}` }]);
  }
  return {
    verifyUrl: (config.VERIFY_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ''),
    prices: { kyc: config.VERIFICATION_PRICE_KYC, kyb: config.VERIFICATION_PRICE_KYB },
    sessionTtlMs: config.VERIFICATION_SESSION_TTL_HOURS * HOUR,
    expiryIntervalMs: config.VERIFICATION_EXPIRY_INTERVAL_MS,
    retentionDays: config.VERIFICATION_RETENTION_DAYS,
    retentionIntervalMs: config.VERIFICATION_RETENTION_INTERVAL_MS,
    platformOrganizationId: config.PLATFORM_ORGANIZATION_ID,
    allowPrivateCallbackTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    liveSandbox: config.HOSTED_PAGE_LIVE_SANDBOX,
    decisions: decisions.decisions,
    // A random secret works for one process (the local start); instances behind a load balancer must share one.
    formSecret: config.HOSTED_PAGE_SECRET ?? randomBytes(32).toString('base64url'),
  };
}
