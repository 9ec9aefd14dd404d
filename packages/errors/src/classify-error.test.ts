import { describe, expect, it } from 'vitest';
import { classifyError } from './classify-error.js';

// What Node's server destroys a request with when its client closes the connection mid-body.
const requestAbortedError = () => Object.assign(new Error('aborted'), { code: 'ECONNRESET' });

describe('classifyError: connections reset', () => {
  it('treats a request whose client went away mid-body as a client error, not an outage', () => {
    expect(classifyError(requestAbortedError(), { requestAborted: true })).toEqual({
      statusCode: 400,
      code: 'bad_request',
      message: 'The connection closed before the request was complete',
      serverFault: false,
    });
  });

  it('still treats a reset connection to a backing service as an outage while the request is whole', () => {
    expect(classifyError(requestAbortedError(), { requestAborted: false })).toMatchObject({
      statusCode: 503,
      code: 'service_unavailable',
      serverFault: true,
    });
  });
});
