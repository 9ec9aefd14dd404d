import { type StatementLog, statementSummary, statementSummaryMarkingPrepared } from '@platform/db/testing';
import type { BackendApp } from '../src/app.js';

/**
 * What `work` sent to PostgreSQL through the suite's statement log (`useTestApp({ statementLog })`), once it and what
 * the app left running after an answer (an API key's lastUsedAt) are done, each statement by its summary
 * (`statementSummary`: `BEGIN`, `lock wallets, insert ledger_transactions, ...`, `COMMIT`); with `markPrepared`, a
 * named prepared statement's summary ends in ` (prepared)`.
 */
export async function statementsSent(
  log: StatementLog,
  app: BackendApp,
  work: () => Promise<unknown>,
  options: { markPrepared?: boolean } = {},
): Promise<string[]> {
  await app.apiKeyUsage.flush();
  log.take();
  await work();
  await app.apiKeyUsage.flush();
  return log.take().map(options.markPrepared === true ? statementSummaryMarkingPrepared : statementSummary);
}
