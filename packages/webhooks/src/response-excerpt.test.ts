import { describe, expect, it } from 'vitest';
import { EXCERPT_MAX_CHARACTERS, REDACTED, scrubResponseExcerpt } from './response-excerpt.js';

describe('scrubResponseExcerpt', () => {
  it('keeps an ordinary answer as it is', () => {
    expect(scrubResponseExcerpt('{"received":true,"status":"ok"}')).toBe('{"received":true,"status":"ok"}');
    expect(scrubResponseExcerpt('Internal Server Error')).toBe('Internal Server Error');
  });

  it('is null for no body or one of whitespace and controls only', () => {
    expect(scrubResponseExcerpt(undefined)).toBeNull();
    expect(scrubResponseExcerpt(null)).toBeNull();
    expect(scrubResponseExcerpt('')).toBeNull();
    expect(scrubResponseExcerpt(' \r\n\t\u0000\u001b ')).toBeNull();
  });

  it('replaces control and invisible characters with spaces and makes whitespace one space', () => {
    const excerpt = scrubResponseExcerpt('line one\r\nline\ttwo\u0000\u001b[31mred\u007f\u202ereversed\u200b\ufeff');
    expect(excerpt).toBe('line one line two [31mred reversed');
    expect(excerpt).not.toMatch(/[\p{Cc}\p{Cf}]/u);
  });

  it.each([
    [
      'a JSON field named like a secret',
      '{"error":"bad","api_key":"abc123"}',
      `{"error":"bad","api_key":"${REDACTED}"}`,
    ],
    ['a token in a query-like text', 'retry with token=s3cr3t&x=1', `retry with token=${REDACTED}&x=1`],
    ['a password field', "{'password': 'hunter2'}", `{'password': '${REDACTED}'}`],
    ['an Authorization header echoed back', 'Authorization: Bearer abc.def.ghi', `Authorization: ${REDACTED}`],
    ['a bearer token in prose', 'expected Bearer XYZ987abc', `expected Bearer ${REDACTED}`],
    ['a signing secret', 'secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', `secret ${REDACTED}`],
    [
      'a JWT',
      'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      `jwt ${REDACTED}`,
    ],
    ['an email address', 'no user jane.doe+kyc@example.co.ke here', `no user ${REDACTED} here`],
    ['a generated key', 'key Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA is unknown', `key ${REDACTED} is unknown`],
    ['a hex digest', 'sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', `sha ${REDACTED}`],
  ])('redacts %s', (_label, body, expected) => {
    expect(scrubResponseExcerpt(body)).toBe(expected);
  });

  it('keeps the event id, UUIDs and plain words, which are no secret', () => {
    const body =
      'duplicate msg_00UFlcovAys1ExXuJCGgmTSurEx for 8a1e2f44-5b6c-4d7e-9f80-112233445566 verification_session.verified';
    expect(scrubResponseExcerpt(body)).toBe(body);
  });

  it('keeps at most 300 characters, marking the cut, and scrubs before cutting', () => {
    const secret = 'Zk9pQ2'.repeat(8);
    const excerpt = scrubResponseExcerpt(`${'lorem '.repeat(48)} token=${secret} ${'ipsum '.repeat(80)}`);
    expect(EXCERPT_MAX_CHARACTERS).toBe(300);
    expect([...(excerpt ?? '')]).toHaveLength(EXCERPT_MAX_CHARACTERS);
    expect(excerpt?.endsWith('…')).toBe(true);
    // The cut falls inside the secret's place: what is there is the start of the mark, none of the secret.
    expect(excerpt?.endsWith(`token=${REDACTED.slice(0, 5)}…`)).toBe(true);
    expect(excerpt).not.toContain(secret.slice(0, 4));
    expect(scrubResponseExcerpt('é'.repeat(400))).toBe(`${'é'.repeat(299)}…`);
  });
});
