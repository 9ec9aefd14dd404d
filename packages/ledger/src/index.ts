export { type LedgerEnv, LedgerEnvSchema, MAX_TEST_WALLET_CREDIT } from './config.js';
export { HoldAlreadyResolvedError, InsufficientFundsError, MovementRaceError } from './errors.js';
export { LOW_BALANCE_EVENT, type LowBalanceEventData } from './low-balance.js';
export { type ReferenceSubject, referenceSubjectOf } from './references.js';
export { findTransactionWalletId, hasLedgerHistory, walletIdQuery } from './repository.js';
export { WalletStatementQuery, WalletTransactionSchema, walletStatementData } from './schemas.js';
export {
  addCapture,
  addHold,
  addRelease,
  captureHold,
  ensureWallet,
  ledgerBalances,
  type Movement,
  type MovementResult,
  type NewWalletOptions,
  placeHold,
  releaseHold,
  setLowBalanceThreshold,
  testCreditReference,
  topUpWallet,
  type WalletBalances,
  walletBalances,
} from './service.js';
export { type WalletStatementPage, type WalletTransactionView, walletStatement } from './statement.js';
