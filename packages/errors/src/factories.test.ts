import { describe, expect, it } from 'vitest';
import { AppError, isAppError, statusCodeOf } from './app-error.js';
import {
  conflict,
  forbidden,
  idempotencyKeyInUse,
  idempotencyKeyReused,
  insufficientFunds,
  internalError,
  notFound,
  organizationNotActivated,
  paymentFailed,
  providerUnavailable,
  quotaExceeded,
  rateLimited,
  serviceUnavailable,
  unauthorized,
  unsupportedPhoneOperator,
  validationError,
} from './factories.js';

describe('error factories', () => {
  it.each([
    [validationError('bad'), 'validation_error', 400],
    [unauthorized(), 'unauthorized', 401],
    [forbidden('no'), 'forbidden', 403],
    [quotaExceeded('full'), 'quota_exceeded', 403],
    [notFound('Profile not found'), 'not_found', 404],
    [conflict('exists'), 'conflict', 409],
    [idempotencyKeyInUse(3), 'idempotency_key_in_use', 409],
    [idempotencyKeyReused(), 'idempotency_key_reused', 422],
    [insufficientFunds('top up'), 'insufficient_funds', 402],
    [organizationNotActivated('activate first'), 'organization_not_activated', 403],
    [paymentFailed('declined'), 'payment_failed', 402],
    [unsupportedPhoneOperator('Airtel'), 'unsupported_phone_operator', 400],
    [providerUnavailable('down'), 'provider_unavailable', 503],
    [serviceUnavailable('not ready'), 'service_unavailable', 503],
    [internalError(), 'internal_error', 500],
    [rateLimited(30), 'rate_limited', 429],
  ] as const)('%s has code %s and status %i', (error, code, status) => {
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe(code);
    expect(error.statusCode).toBe(status);
    expect(statusCodeOf[code]).toBe(status);
  });

  it('keeps the message and details of a validation error', () => {
    const error = validationError('No valid fields provided for update', [{ path: '/dob', message: 'must be a date' }]);
    expect(error.message).toBe('No valid fields provided for update');
    expect(error.details).toEqual([{ path: '/dob', message: 'must be a date' }]);
  });

  it('sets WWW-Authenticate on unauthorized, with the given challenge', () => {
    expect(unauthorized().headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(unauthorized('Invalid API key', 'ApiKey').headers).toEqual({ 'WWW-Authenticate': 'ApiKey' });
    expect(unauthorized().message).toBe('Authentication required');
  });

  it('sets Retry-After in whole seconds, at least 1', () => {
    expect(idempotencyKeyInUse(2.2).headers).toEqual({ 'Retry-After': '3' });
    expect(idempotencyKeyInUse(0).headers).toEqual({ 'Retry-After': '1' });
    expect(rateLimited(42).headers).toEqual({ 'Retry-After': '42' });
    expect(rateLimited(42).message).toBe('Rate limit exceeded, retry in 42 seconds');
  });

  it('keeps a cause for the log without putting it in the message', () => {
    const cause = new Error('connection refused 10.0.0.3:5432');
    const error = internalError('Failed to fetch profile', { cause });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('Failed to fetch profile');
  });

  it('recognises AppErrors, including ones from another copy of the package', () => {
    expect(isAppError(notFound('x'))).toBe(true);
    expect(isAppError(new Error('x'))).toBe(false);
    const foreign = Object.assign(new Error('x'), { [Symbol.for('@platform/errors.AppError')]: true });
    expect(isAppError(foreign)).toBe(true);
  });
});
