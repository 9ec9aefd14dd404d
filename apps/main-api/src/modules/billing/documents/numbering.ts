/** How many digits a document number has at least: `RCT-000001`. */
const MIN_DIGITS = 6;

/** `RCT-000001` for `RCT` and 1; more digits once the series passes 999,999 (`RCT-1000000`). */
export function formatDocumentNumber(prefix: string, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`No document has the number ${sequence}`);
  return `${prefix}-${String(sequence).padStart(MIN_DIGITS, '0')}`;
}
