import { describe, expect, it } from 'vitest';
import {
  malformedMpesaReceiptNumberOf,
  outcomeOfStkQuery,
  readMpesaReceiptNumber,
  readStkCallback,
  statusOfResultCode,
} from './results.js';

describe('statusOfResultCode', () => {
  it.each([
    [0, 'succeeded'],
    [1032, 'cancelled'],
    [1037, 'expired'],
    [1019, 'expired'],
    [1, 'failed'],
    [2001, 'failed'],
    [1025, 'failed'],
    [9999, 'failed'],
    [4999, 'pending'],
  ] as const)('maps %i to %s', (code, status) => {
    expect(statusOfResultCode(code)).toBe(status);
  });
});

describe('readStkCallback', () => {
  const success = {
    Body: {
      stkCallback: {
        MerchantRequestID: '29115-34620561-1',
        CheckoutRequestID: 'ws_CO_191220191020363925',
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        CallbackMetadata: {
          Item: [
            { Name: 'Amount', Value: 1.0 },
            { Name: 'MpesaReceiptNumber', Value: 'NLJ7RT61SV' },
            { Name: 'TransactionDate', Value: 20191219102115 },
            { Name: 'PhoneNumber', Value: 254708374149 },
          ],
        },
      },
    },
  };

  it('reads a success with the amount paid and the M-Pesa receipt number', () => {
    expect(readStkCallback(success, 'daraja_callback')).toEqual({
      checkoutRequestId: 'ws_CO_191220191020363925',
      outcome: {
        status: 'succeeded',
        eventKey: 'daraja:callback:ws_CO_191220191020363925:0',
        source: 'daraja_callback',
        payload: success,
        paid: { amount: 1, currency: 'KES' },
        mpesaReceiptNumber: 'NLJ7RT61SV',
      },
    });
  });

  /** The success callback with its MpesaReceiptNumber item's value replaced (or the item left out: undefined). */
  function withReceiptNumber(value: unknown) {
    const items = success.Body.stkCallback.CallbackMetadata.Item.flatMap((item) =>
      item.Name !== 'MpesaReceiptNumber' ? [item] : value === undefined ? [] : [{ ...item, Value: value }],
    );
    return { Body: { stkCallback: { ...success.Body.stkCallback, CallbackMetadata: { Item: items } } } };
  }

  it.each([
    ['lowercase', 'nlj7rt61sv', { type: 'string', length: 10 }],
    ['too long', 'NLJ7RT61SVX', { type: 'string', length: 11 }],
    ['too short', 'NLJ7RT61', { type: 'string', length: 8 }],
    ['with a space', 'NLJ7 T61SV', { type: 'string', length: 10 }],
    ['empty', '', { type: 'string', length: 0 }],
    ['a number (a phone number, say)', 254708374149, { type: 'number', length: 12 }],
    ['null', null, { type: 'null', length: null }],
  ])('keeps no receipt number that is %s, and tells only its type and length', (_, value, told) => {
    const body = withReceiptNumber(value);
    const outcome = readStkCallback(body, 'daraja_callback')?.outcome;
    expect(outcome).toMatchObject({ status: 'succeeded', paid: { amount: 1, currency: 'KES' } });
    expect(outcome).not.toHaveProperty('mpesaReceiptNumber');
    expect(malformedMpesaReceiptNumberOf(body)).toEqual({ kind: 'malformed', ...told });
  });

  it('reads a success without a receipt number as one without it, and nothing malformed', () => {
    const body = withReceiptNumber(undefined);
    expect(readStkCallback(body, 'daraja_callback')?.outcome).not.toHaveProperty('mpesaReceiptNumber');
    expect(malformedMpesaReceiptNumberOf(body)).toBeUndefined();
    expect(readMpesaReceiptNumber(body.Body.stkCallback.CallbackMetadata)).toEqual({ kind: 'absent' });
    expect(malformedMpesaReceiptNumberOf(success)).toBeUndefined();
  });

  it('reads a success whose metadata has no Amount as "amount not reported", never as another amount', () => {
    const items = success.Body.stkCallback.CallbackMetadata.Item.filter((item) => item.Name !== 'Amount');
    const withoutAmount = { Body: { stkCallback: { ...success.Body.stkCallback, CallbackMetadata: { Item: items } } } };
    const outcome = readStkCallback(withoutAmount, 'daraja_callback')?.outcome;
    expect(outcome).toMatchObject({ status: 'succeeded' });
    expect(outcome).not.toHaveProperty('paid');
    expect(outcome).not.toHaveProperty('reason');
    // An Amount that is there but unreadable is still compared, and matches nothing.
    const unreadable = {
      Body: {
        stkCallback: { ...success.Body.stkCallback, CallbackMetadata: { Item: [{ Name: 'Amount', Value: 'ten' }] } },
      },
    };
    expect(readStkCallback(unreadable, 'daraja_callback')?.outcome.paid?.amount).toBeNaN();
  });

  it('reads a cancellation with its description', () => {
    const cancelled = {
      Body: {
        stkCallback: {
          MerchantRequestID: 'm',
          CheckoutRequestID: 'ws_CO_1',
          ResultCode: 1032,
          ResultDesc: 'Request cancelled by user',
        },
      },
    };
    expect(readStkCallback(cancelled, 'daraja_callback')?.outcome).toMatchObject({
      status: 'cancelled',
      reason: 'Request cancelled by user',
      eventKey: 'daraja:callback:ws_CO_1:1032',
    });
  });

  it.each([
    [undefined],
    [{}],
    [{ Body: {} }],
    [{ Body: { stkCallback: { CheckoutRequestID: 'x' } } }],
    [{ Body: { stkCallback: { ResultCode: 0 } } }],
  ])('refuses what is not a callback: %j', (body) => {
    expect(readStkCallback(body, 'daraja_callback')).toBeUndefined();
  });
});

describe('outcomeOfStkQuery', () => {
  it('reads ResultCode 4999 as still being processed', () => {
    const answer = {
      ResponseCode: '0',
      CheckoutRequestID: 'ws_CO_3',
      ResultCode: '4999',
      ResultDesc: 'The transaction is still under processing',
    };
    expect(outcomeOfStkQuery('ws_CO_3', answer, 'daraja_query')).toEqual({
      status: 'pending',
      eventKey: 'daraja:query:ws_CO_3:processing',
      source: 'daraja_query',
      payload: answer,
    });
  });

  it('reads the string result code of a query answer', () => {
    const answer = {
      ResponseCode: '0',
      CheckoutRequestID: 'ws_CO_2',
      ResultCode: '1037',
      ResultDesc: 'DS timeout user cannot be reached',
    };
    expect(outcomeOfStkQuery('ws_CO_2', answer, 'daraja_query')).toMatchObject({
      status: 'expired',
      eventKey: 'daraja:query:ws_CO_2:1037',
      reason: 'DS timeout user cannot be reached',
    });
  });
});
