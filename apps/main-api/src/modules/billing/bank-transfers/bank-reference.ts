/**
 * A bank's reference of a transfer as stored: trimmed, spaces collapsed, upper case, so that the same transfer typed
 * twice is recognised (one transfer confirms one payment: docs/decisions.md#bank-transfer-confirmation).
 */
export function normalizeBankReference(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toUpperCase();
}
