export { HoldAlreadyResolvedError, InsufficientFundsError } from './errors.js';
export {
  captureHold,
  ensureWallet,
  ledgerBalances,
  type Movement,
  type MovementResult,
  placeHold,
  releaseHold,
  topUpWallet,
  type WalletBalances,
} from './service.js';
