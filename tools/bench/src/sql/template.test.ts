import type postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { replayTemplate } from './replay.js';
import { compileTemplate, type TemplateQuery, TraceMismatchError } from './template.js';
import type { QueryStep, TraceStep } from './trace.js';

const ORGANIZATION = '0b8e3c1a-1111-4c2d-9e0f-000000000001';

function query(text: string, params: unknown[], rows: unknown[][] = []): QueryStep {
  return { kind: 'query', query: text, params, options: { prepare: false }, arrayMode: true, rows };
}

/** What a session create records: a claim, then a transaction that uses ids from the claim and the app. */
function recording(run: {
  key: string;
  claimId: string;
  sessionId: string;
  ledgerId: string;
  eventId: string;
  at: string;
}): TraceStep[] {
  return [
    query(
      'insert into idempotency_records (scope, key) values ($1, $2) returning id',
      [`api_key:${ORGANIZATION}`, run.key],
      [[run.claimId]],
    ),
    {
      kind: 'transaction',
      savepoint: false,
      steps: [
        query('select * from wallets where organization_id = $1 for update', [ORGANIZATION], [[ORGANIZATION, 1000]]),
        query('insert into sessions (id, organization_id, created_at) values ($1, $2, $3)', [
          run.sessionId,
          ORGANIZATION,
          run.at,
        ]),
        query(
          'insert into ledger_transactions (reference) values ($1) returning id',
          [`verification_session:${run.sessionId}`],
          [[run.ledgerId]],
        ),
        query('insert into ledger_entries (transaction_id, amount) values ($1, $2)', [run.ledgerId, 50]),
        query('insert into webhook_events (id, payload) values ($1, $2)', [
          run.eventId,
          JSON.stringify({ id: run.eventId, type: 'verification_session.created', data: { sessionId: run.sessionId } }),
        ]),
        query('update idempotency_records set response = $1 where id = $2', [
          JSON.stringify({ data: { sessionId: run.sessionId, url: `https://verify.test/session/${run.sessionId}` } }),
          run.claimId,
        ]),
      ],
    },
  ];
}

const first = {
  key: 'key-first-0001',
  claimId: 'c1a10000-0000-4000-8000-000000000001',
  sessionId: '5e551011-0000-4000-8000-000000000001',
  ledgerId: '1ed9e000-0000-4000-8000-000000000001',
  eventId: 'msg_0Abc1Def2Ghi3Jkl4Mno5Pqr6St',
  at: '2026-03-02T09:00:00.000Z',
};
const second = {
  key: 'key-second-0002',
  claimId: 'c1a10000-0000-4000-8000-000000000002',
  sessionId: '5e551011-0000-4000-8000-000000000002',
  ledgerId: '1ed9e000-0000-4000-8000-000000000002',
  eventId: 'msg_0Abc1Def2Zyx9Wvu8Tsr7Qpo6Nm',
  at: '2026-03-02T09:00:01.000Z',
};
const inputs = { first: { 'header:x-idempotency-key': first.key }, second: { 'header:x-idempotency-key': second.key } };

function queriesOf(steps: ReturnType<typeof compileTemplate>['steps']): TemplateQuery[] {
  return steps.flatMap((step) => (step.kind === 'query' ? [step] : queriesOf(step.steps)));
}

describe('compileTemplate', () => {
  const template = compileTemplate(recording(first), recording(second), inputs);
  const queries = queriesOf(template.steps);

  it('keeps parameters that were the same both times, and counts BEGIN and COMMIT as statements', () => {
    expect(template.statements).toBe(9);
    expect(queries[1]!.params).toEqual([{ constant: ORGANIZATION }]);
    expect(queries[4]!.params[1]).toEqual({ constant: 50 });
  });

  it('fills a request input, an id an earlier statement answered, an app-made UUID and the clock', () => {
    expect(queries[0]!.params[1]).toEqual({
      segments: [{ slot: { kind: 'input', name: 'header:x-idempotency-key' } }],
    });
    expect(queries[2]!.params).toEqual([
      { segments: [{ slot: { kind: 'uuid', index: 0 } }] },
      { constant: ORGANIZATION },
      { segments: [{ slot: { kind: 'now' } }] },
    ]);
    expect(queries[3]!.params[0]).toEqual({
      segments: [{ text: 'verification_session:' }, { slot: { kind: 'uuid', index: 0 } }],
    });
    expect(queries[4]!.params[0]).toEqual({ segments: [{ slot: { kind: 'result', step: 3, row: 0, column: 0 } }] });
    expect(queries[6]!.params[1]).toEqual({ segments: [{ slot: { kind: 'result', step: 0, row: 0, column: 0 } }] });
    expect(template.resultSteps).toEqual([0, 3]);
  });

  it('finds the UUID inside a JSON parameter, and leaves the UUIDs that never changed alone', () => {
    const segments = (queries[6]!.params[0] as { segments: unknown[] }).segments;
    expect(segments.filter((segment) => JSON.stringify(segment).includes('"uuid"'))).toHaveLength(2);
    expect(JSON.stringify(queries[0]!.params[0])).toContain(ORGANIZATION);
  });

  it('replaces another id the application made (an event id) wherever it appears, keeping its prefix and length', () => {
    const eventSlot = { kind: 'token', index: 0, prefix: 'msg_', length: first.eventId.length };
    expect(queries[5]!.params[0]).toEqual({ segments: [{ slot: eventSlot }] });
    expect((queries[5]!.params[1] as { segments: unknown[] }).segments).toContainEqual({ slot: eventSlot });
    // Words both recordings share (a type name, a table name) stay as they are.
    expect(JSON.stringify(queries[5]!.params[1])).toContain('verification_session.created');
  });

  it('refuses two recordings that ran different statements', () => {
    const other = recording(second);
    other.splice(0, 1, query('select 1', []));
    expect(() => compileTemplate(recording(first), other, inputs)).toThrow(TraceMismatchError);
  });
});

describe('times computed from the clock', () => {
  const claim = (at: number, jitterMs: number): TraceStep[] => [
    query('insert into claims (id, claimed_at, expires_at, seen_at) values ($1, $2, $3, $4)', [
      'claim',
      new Date(at).toISOString(),
      new Date(at + 30 * 60_000).toISOString(),
      new Date(at + jitterMs).toISOString(),
    ]),
  ];
  const at = Date.parse('2026-03-02T09:00:00.000Z');
  const template = compileTemplate(claim(at, 3), claim(at + 1_500, 5), { first: {}, second: {} });

  it('keeps a time the application computed from its clock (a claim ending 30 minutes on) that far from now', () => {
    expect(queriesOf(template.steps)[0]!.params.slice(1)).toEqual([
      { segments: [{ slot: { kind: 'now' } }] },
      { segments: [{ slot: { kind: 'now', offsetMs: 30 * 60_000 } }] },
      { segments: [{ slot: { kind: 'now' } }] },
    ]);
  });

  it("replays it that far from the request's own now", async () => {
    const sent: unknown[][] = [];
    const client = {
      unsafe: (_text: string, params: unknown[]) => {
        sent.push(params);
        const pending = Promise.resolve([]);
        return Object.assign(pending, { values: () => pending });
      },
    };
    await replayTemplate(client as unknown as postgres.Sql, template, () => undefined);
    const [, claimedAt, expiresAt, seenAt] = sent[0] as string[];
    expect(Date.parse(expiresAt!) - Date.parse(claimedAt!)).toBe(30 * 60_000);
    expect(seenAt).toBe(claimedAt);
  });
});

describe('replayTemplate', () => {
  it('runs the statements in order, in a transaction, with fresh values and the ids the database answered', async () => {
    const template = compileTemplate(recording(first), recording(second), inputs);
    const sent: Array<{ query: string; params: unknown[]; inTransaction: boolean }> = [];
    let generated = 0;
    const client = (inTransaction: boolean) => ({
      unsafe: (text: string, params: unknown[]) => {
        sent.push({ query: text, params, inTransaction });
        const rows = text.includes('returning id') ? [[`db-id-${++generated}`]] : [];
        const pending = Promise.resolve(rows);
        return Object.assign(pending, { values: () => pending });
      },
      begin: async (block: (tx: unknown) => Promise<void>) => block(client(true)),
    });

    await replayTemplate(client(false) as unknown as postgres.Sql, template, (name) =>
      name === 'header:x-idempotency-key' ? 'key-now' : undefined,
    );

    expect(sent.map((statement) => statement.inTransaction)).toEqual([false, true, true, true, true, true, true]);
    expect(sent[0]!.params).toEqual([`api_key:${ORGANIZATION}`, 'key-now']);
    const sessionId = sent[2]!.params[0] as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect([first.sessionId, second.sessionId]).not.toContain(sessionId);
    expect(Date.parse(sent[2]!.params[2] as string)).toBeGreaterThan(Date.parse(second.at));
    expect(sent[3]!.params).toEqual([`verification_session:${sessionId}`]);
    expect(sent[4]!.params).toEqual(['db-id-2', 50]);
    const eventId = sent[5]!.params[0] as string;
    expect(eventId).toMatch(/^msg_[A-Za-z0-9]{27}$/);
    expect([first.eventId, second.eventId]).not.toContain(eventId);
    expect(JSON.parse(sent[5]!.params[1] as string)).toMatchObject({ id: eventId, data: { sessionId } });
    expect(sent[6]!.params[1]).toBe('db-id-1');
    expect(JSON.parse(sent[6]!.params[0] as string)).toEqual({
      data: { sessionId, url: `https://verify.test/session/${sessionId}` },
    });
  });
});
