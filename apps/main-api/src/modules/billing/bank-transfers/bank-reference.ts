import { validationError } from '@platform/errors';

// A bank's reference of a transfer, as finance copies it from the statement (docs/decisions.md#bank-transfer-confirmation):
// 1-64 characters, starting with a letter or digit, then letters, digits, spaces and . / _ -. Checked here rather than
// by a schema pattern, so that a refusal says what a reference may contain in words, not as a regular expression.

const BANK_REFERENCE = /^[A-Za-z0-9][A-Za-z0-9 ./_-]*$/;

/** What a bank reference may contain, as every refusal says it. */
export const BANK_REFERENCE_RULE =
  'bankReference may contain letters, digits, spaces and . / _ - (up to 64 characters, starting with a letter or a ' +
  'digit), as the bank statement shows it';

/**
 * A bank's reference of a transfer as stored: trimmed, spaces collapsed, upper case, so that the same transfer typed
 * twice is recognised (one line of a statement is recorded once: docs/decisions.md#split-bank-transfers). 400 naming
 * what a reference may contain for anything else.
 */
export function normalizeBankReference(value: string): string {
  const trimmed = value.trim();
  if (!BANK_REFERENCE.test(trimmed)) {
    throw validationError(BANK_REFERENCE_RULE, [{ path: '/bankReference', message: BANK_REFERENCE_RULE }]);
  }
  return trimmed.replace(/\s+/g, ' ').toUpperCase();
}
