import type { Database } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import type { DecisionTable } from '../decisions/index.js';
import type { LifecycleOptions } from '../index.js';
import type { SmileIdClient } from './client.js';
import type { SmileIdMetrics } from './metrics.js';
import type { SmileIdCredentials } from './signature.js';

// What the smile_id decision source works with (docs/decisions.md#automated-decisions): built once per app by
// decision-source.ts, read by the job loop (service.ts) and by the result's application (apply-result.ts).

export interface SmileIdLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface SmileIdContext {
  db: Database;
  vault: DocumentVault;
  client: SmileIdClient;
  credentials: SmileIdCredentials;
  now: () => Date;
  /** Where Smile ID sends results. */
  callbackUrl: string;
  /** A job without a result this long after Smile ID took it is asked about. */
  reconcileAfterMs: number;
  /** A job without a result this long after the submission goes to manual review. */
  fallbackAfterMs: number;
  /** How long a claimed job is left to the instance that claimed it (its calls to Smile ID). */
  leaseMs: number;
  /** The lifecycle's options: kycStatus, and the decisions observed once committed. */
  lifecycle: LifecycleOptions;
  metrics?: SmileIdMetrics | undefined;
  logger?: SmileIdLogger | undefined;
  /**
   * What a business's directors' own sessions are made with (docs/decisions.md#directors): the configuration's
   * decision sources and the sessions' lifetime. Without it no director is asked, and the policy sends the business to
   * a reviewer, who reads the CR12.
   */
  directors?: { decisions: DecisionTable; ttlMs: number } | undefined;
  /** Runs the job loop soon: a chained job waits no tick after a callback (docs/decisions.md#smile-id-job-chain). */
  kick?: (() => void) | undefined;
}
