import { schemaViolationMessages, unreadableMessages } from '@platform/http/testing';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app-fixtures.js';

// Every rule of every route's body, query, path and header schemas, broken once: what the envelope says names the
// field as the API does and what it takes, never the validator's words or a pattern
// (docs/decisions.md#validation-messages).
const t = useTestApp();

describe('validation messages of backend-api', () => {
  it("never show the validator's words or quote a pattern", () => {
    const messages = schemaViolationMessages(t.app);
    expect(messages.length).toBeGreaterThan(100);
    expect(
      unreadableMessages(messages).map(({ route, violation, error }) => `${route} ${violation}: ${error}`),
    ).toEqual([]);
  });

  it('say what is allowed', () => {
    const said = new Set(schemaViolationMessages(t.app).flatMap((message) => message.error.split('; ')));
    for (const sentence of [
      'id must be a UUID',
      'type is required: kyc or kyb',
      'limit must be a whole number from 1 to 100',
    ]) {
      expect(said, sentence).toContain(sentence);
    }
  });
});
