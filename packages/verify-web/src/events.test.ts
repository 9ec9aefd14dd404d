import { describe, expect, it } from 'vitest';
import { readVerificationEvent } from './events.js';

describe('readVerificationEvent', () => {
  it.each<[object, object]>([
    [{ type: 'verification.submitted' }, { type: 'verification.submitted' }],
    [{ type: 'verification.closed' }, { type: 'verification.closed' }],
    ...(['verified', 'rejected', 'expired', 'canceled'] as const).map((status): [object, object] => [
      { type: 'verification.completed', status },
      { type: 'verification.completed', status },
    ]),
    // Only the documented fields are passed on.
    [
      { type: 'verification.completed', status: 'verified', sessionId: 'x', html: '<b>' },
      { type: 'verification.completed', status: 'verified' },
    ],
    [{ type: 'verification.submitted', status: 'verified' }, { type: 'verification.submitted' }],
  ])('reads %j as %j', (data, event) => {
    expect(readVerificationEvent(data)).toEqual(event);
  });

  it.each([
    null,
    undefined,
    'verification.completed',
    42,
    [],
    ['verification.submitted'],
    {},
    { type: 'verification.started' },
    { type: 'VERIFICATION.SUBMITTED' },
    { type: 'verification.completed' },
    { type: 'verification.completed', status: 'pending' },
    { type: 'verification.completed', status: 'processing' },
    { type: 'verification.completed', status: 'Verified' },
    { type: 'verification.completed', status: ['verified'] },
    { type: { toString: (): string => 'verification.submitted' } },
  ])('ignores %j', (data) => {
    expect(readVerificationEvent(data)).toBeUndefined();
  });
});
