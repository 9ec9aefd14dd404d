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
  type WalletRef,
} from './service.js';
