/** There is not enough available balance for a hold; nothing was written. */
export class InsufficientFundsError extends Error {
  constructor(
    readonly available: number,
    readonly required: number,
  ) {
    super(`Wallet balance ${available} KES is below the ${required} KES required`);
    this.name = 'InsufficientFundsError';
  }
}

/** A hold was asked to be captured or released after it had already been resolved the other way. */
export class HoldAlreadyResolvedError extends Error {
  constructor(readonly reference: string) {
    super(`The hold for ${reference} has already been resolved`);
    this.name = 'HoldAlreadyResolvedError';
  }
}
