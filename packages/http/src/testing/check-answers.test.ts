import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFuzzedAnswers, type FuzzTarget } from './check-answers.js';
import type { FuzzRequest } from './requests.js';

const ENVELOPE = JSON.stringify({ success: false, error: 'Bad request', code: 'validation_error', requestId: 'r1' });
const requests: fc.Arbitrary<FuzzRequest> = fc.constantFrom<FuzzRequest>(
  { route: 'POST /things', method: 'POST', url: '/things', headers: {}, payload: '{}' },
);
const settings = { seed: 1, numRuns: 5 };

function target(answer: { statusCode: number; body: string; contentType?: string }, options: Partial<FuzzTarget> = {}): FuzzTarget {
  return {
    inject: async () => ({ statusCode: answer.statusCode, body: answer.body, headers: { 'content-type': answer.contentType ?? 'application/json' } }),
    snapshot: async () => ({ things: 'same' }),
    ...options,
  };
}

describe('checkFuzzedAnswers', () => {
  it('passes a service that refuses with the envelope and changes nothing', async () => {
    await expect(checkFuzzedAnswers(target({ statusCode: 400, body: ENVELOPE }), requests, settings)).resolves.toBeUndefined();
  });

  it('fails on a 5xx, naming the seed', async () => {
    await expect(checkFuzzedAnswers(target({ statusCode: 500, body: ENVELOPE }), requests, settings)).rejects.toThrow(/FUZZ_SEED=1/);
  });

  it('fails on an error that is not the envelope, unless it is a browser page', async () => {
    const html = { statusCode: 404, body: '<h1>Not found</h1>', contentType: 'text/html' };
    await expect(checkFuzzedAnswers(target(html), requests, settings)).rejects.toThrow(/not JSON/);
    await expect(checkFuzzedAnswers(target(html, { isBrowserPage: () => true }), requests, settings)).resolves.toBeUndefined();
  });

  it('fails when a refused request, or one that must change nothing, changed the stored state', async () => {
    let version = 0;
    const changing = { snapshot: async () => ({ things: String((version += 1)) }) };
    await expect(checkFuzzedAnswers(target({ statusCode: 400, body: ENVELOPE }, changing), requests, settings)).rejects.toThrow(/Changed things/);
    await expect(checkFuzzedAnswers(target({ statusCode: 200, body: '{}' }, changing), requests, settings)).resolves.toBeUndefined();
    await expect(
      checkFuzzedAnswers(target({ statusCode: 200, body: '{}' }, { ...changing, mustChangeNothing: () => true }), requests, settings),
    ).rejects.toThrow(/Changed things/);
  });
});
