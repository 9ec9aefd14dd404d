import { schemaViolationMessages, unreadableMessages } from '@platform/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, startBillingApp } from '../../test/billing-fixtures.js';
import { fakeDarajaEnv } from '../../test/fake-daraja.js';
import { FAKE_PAYSTACK_SECRET } from '../../test/fake-paystack.js';

// Every rule of every route's body, query, path and header schemas, broken once: what the envelope says names the
// field as the API does and what it takes, never the validator's words or a pattern
// (docs/decisions.md#validation-messages). Both provider shapes, so every route is walked.
const NOWHERE = 'http://127.0.0.1:9';

describe.each([
  { name: 'the sandbox card checkout', env: fakeDarajaEnv(NOWHERE) },
  { name: 'Paystack', env: { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: NOWHERE } },
])('validation messages of main-api with $name', ({ env }) => {
  let t: BillingTestApp;
  beforeAll(async () => {
    t = await startBillingApp({ env });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("never show the validator's words or quote a pattern", () => {
    const messages = schemaViolationMessages(t.app);
    // Enough rules broken to mean something: every route with a schema gives several.
    expect(messages.length).toBeGreaterThan(300);
    expect(
      unreadableMessages(messages).map(({ route, violation, error }) => `${route} ${violation}: ${error}`),
    ).toEqual([]);
  });

  it('say what is allowed for the fields the issue named', () => {
    const said = new Set(schemaViolationMessages(t.app).flatMap((message) => message.error.split('; ')));
    for (const sentence of [
      'newCycle is required: monthly or yearly',
      'id must be a UUID',
      'kraPin must be a KRA PIN: a letter, nine digits and a letter (P051234567Q)',
    ]) {
      expect(said, sentence).toContain(sentence);
    }
  });
});
