/** What a client learns from an answer: its status and its JSON body, without the `requestId` every answer differs by. */
export interface Answer {
  status: number;
  body: unknown;
}

/**
 * `response` as an Answer, for "the same answer as for an id that does not exist" checks: two answers that are
 * equal tell a client nothing about which of the two ids exists.
 */
export function answerOf(response: { statusCode: number; body: string }): Answer {
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return { status: response.statusCode, body: response.body };
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'requestId' in body) {
    const { requestId: _requestId, ...rest } = body as Record<string, unknown>;
    return { status: response.statusCode, body: rest };
  }
  return { status: response.statusCode, body };
}
