import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppServer, createServer } from '../create-server.js';
import { schemaViolationMessages, unreadableMessages, validatorPhrasing } from './validation-messages.js';

let app: AppServer | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serverWith(pattern: Record<string, unknown>): Promise<AppServer> {
  app = createServer({ service: { name: 'test', version: '1', description: 'test' }, logger: false });
  app.register(async (routes) => {
    routes.post(
      '/things/:id',
      {
        schema: {
          params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
          querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }),
          body: Type.Object(
            {
              cycle: Type.Union([Type.Literal('monthly'), Type.Literal('yearly')]),
              code: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', ...pattern })),
              metadata: Type.Optional(
                Type.Object({ seats: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
              ),
            },
            { additionalProperties: false },
          ),
        },
      },
      async () => ({ ok: true }),
    );
  });
  await app.ready();
  return app;
}

describe('schemaViolationMessages', () => {
  it('breaks every rule of every part once, and words each failure as the envelope does', async () => {
    const messages = schemaViolationMessages(await serverWith({ 'x-allowed': 'three capital letters' }));
    const said = new Set(messages.flatMap((message) => message.error.split('; ')));
    for (const sentence of [
      'id must be a UUID',
      'limit must be a whole number from 1 to 100',
      'cycle is required: monthly or yearly',
      'cycle must be monthly or yearly',
      'code must be three capital letters',
      'metadata.seats must be a whole number of at least 1',
      'unexpectedField is not a field this request takes',
      'the request body must be an object',
    ]) {
      expect(said, sentence).toContain(sentence);
    }
    expect(unreadableMessages(messages)).toEqual([]);
  });

  it('finds a message that would quote a pattern', async () => {
    const messages = schemaViolationMessages(await serverWith({ 'x-allowed': 'matching ^[A-Z]{3}$' }));
    expect(unreadableMessages(messages).map((message) => message.violation)).toEqual(['/code: type', '/code: pattern']);
  });

  it("recognises the validator's own phrases", () => {
    for (const phrase of [
      'params/id must match format "uuid"',
      'must match pattern "^ *[A-Za-z0-9]"',
      "querystring must have required property 'newCycle'",
      'must NOT have more than 64 characters',
      'must be equal to one of the allowed values',
      'must be integer',
      'must be >= 1',
      'must be string,null',
    ]) {
      expect(validatorPhrasing.test(phrase), phrase).toBe(true);
    }
    expect(validatorPhrasing.test('newCycle is required: monthly or yearly')).toBe(false);
  });
});
