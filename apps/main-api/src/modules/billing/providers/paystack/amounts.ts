// Paystack counts money in subunits (cents). Whole KES everywhere else: this is the only conversion.

export function toPaystackSubunits(kes: number): number {
  return kes * 100;
}

/** Whole KES, or NaN when the subunits are not a whole number of shillings (so no comparison matches). */
export function fromPaystackSubunits(subunits: number): number {
  return Number.isSafeInteger(subunits) && subunits % 100 === 0 ? subunits / 100 : Number.NaN;
}
