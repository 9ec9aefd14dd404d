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

/**
 * A movement of the same kind and reference (or a second resolution of a hold) committed while this one ran: nothing
 * was written twice, and the transaction cannot go on (the database refused the statement). Roll back; a retry sees
 * the movement that won.
 */
export class MovementRaceError extends Error {
  constructor(readonly reference: string) {
    super(`Another movement of ${reference} was made at the same time`);
    this.name = 'MovementRaceError';
  }
}
