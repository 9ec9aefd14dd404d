import { describe, expect, it } from 'vitest';
import { answerOf } from './answer.js';

const notFound = (requestId: string, error = 'Thing not found') =>
  JSON.stringify({ success: false, error, code: 'not_found', requestId });

describe('answerOf', () => {
  it('makes two answers that differ only by request id equal', () => {
    expect(answerOf({ statusCode: 404, body: notFound('r1') })).toEqual(
      answerOf({ statusCode: 404, body: notFound('r2') }),
    );
    expect(answerOf({ statusCode: 404, body: notFound('r1') })).toEqual({
      status: 404,
      body: { success: false, error: 'Thing not found', code: 'not_found' },
    });
  });

  it('keeps every other difference: status, message, other fields, text bodies', () => {
    const base = answerOf({ statusCode: 404, body: notFound('r1') });
    expect(answerOf({ statusCode: 403, body: notFound('r1') })).not.toEqual(base);
    expect(answerOf({ statusCode: 404, body: notFound('r1', 'Other not found') })).not.toEqual(base);
    expect(
      answerOf({ statusCode: 404, body: JSON.stringify({ ...JSON.parse(notFound('r1')), details: [] }) }),
    ).not.toEqual(base);
    expect(answerOf({ statusCode: 404, body: '<h1>Not found</h1>' })).toEqual({
      status: 404,
      body: '<h1>Not found</h1>',
    });
  });
});
