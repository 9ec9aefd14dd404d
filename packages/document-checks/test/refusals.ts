import { expect } from 'vitest';
import { DocumentFileRefusal, type DocumentFileRefusalReason } from '../src/index.js';

// What the check tests expect of a refusal: its reason and, where given, its message.

async function refusalOf(promise: Promise<unknown>): Promise<DocumentFileRefusal> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DocumentFileRefusal)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

export async function expectRefused(
  promise: Promise<unknown>,
  reason: DocumentFileRefusalReason,
  message?: RegExp,
): Promise<DocumentFileRefusal> {
  const refusal = await refusalOf(promise);
  expect(refusal.reason).toBe(reason);
  if (message !== undefined) expect(refusal.message).toMatch(message);
  return refusal;
}
