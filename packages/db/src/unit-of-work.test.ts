import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { type DatabaseHandle, queryRows } from './client.js';
import { tableRowOf } from './rows.js';
import { organizations, users } from './schema/index.js';
import { createStatementLog, statementSummary } from './statement-log.js';
import { createTestDatabase } from './testing.js';
import { type UnitOfWork, unitOfWork, unitOfWorkIn } from './unit-of-work.js';

const insertUser = (id: string) =>
  sql`insert into users (id, email) values (${id}::text, ${`${id}@example.com`}::text) returning id`;
const renameUser = (id: string, name: string) =>
  sql`update users set first_name = ${name}::text where id = ${id}::text returning id`;

describe('unit of work', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.delete(users);
  });

  const userIds = async () => (await handle.db.select({ id: users.id }).from(users)).map(({ id }) => id).sort();
  const nameOf = async (id: string) =>
    (await handle.db.select({ name: users.firstName }).from(users).where(eq(users.id, id)))[0]?.name;

  it('writes what the work added at commit, each told how many rows it returned', async () => {
    const written: number[] = [];
    await unitOfWork(handle.db, async (work) => {
      expect(work.transactional).toBe(false);
      work.write(insertUser('a'), { written: (rows) => void written.push(rows) });
      work.write(renameUser('nobody', 'x'), { written: (rows) => void written.push(rows) });
      expect(await userIds()).toEqual([]);
    });
    expect(written).toEqual([1, 0]);
    expect(await userIds()).toEqual(['a']);
  });

  it('runs the work again in a transaction when its one statement cannot commit, having written nothing', async () => {
    await handle.db.insert(users).values({ id: 'b', email: 'b@example.com' });
    const attempts: boolean[] = [];
    await unitOfWork(handle.db, async (work) => {
      attempts.push(work.transactional);
      work.write(insertUser('c'));
      if (!work.transactional) work.write(renameUser('missing', 'never'), { required: true });
      else work.write(renameUser('b', 'second attempt'), { required: true });
    });
    expect(attempts).toEqual([false, true]);
    expect(await userIds()).toEqual(['b', 'c']);
    expect(await nameOf('b')).toBe('second attempt');
  });

  it("throws a required write's refusal in a transaction, rolling back what the work sent before", async () => {
    const refused = unitOfWork(handle.db, async (work) => {
      await work.query(insertUser('d'));
      expect(work.transactional).toBe(true);
      work.write(insertUser('e'));
      work.write(renameUser('missing', 'never'), { required: () => new Error('refused') });
    });
    await expect(refused).rejects.toThrow('refused');
    expect(await userIds()).toEqual([]);
  });

  it('rolls back when the work throws after its first statement', async () => {
    const failing = unitOfWork(handle.db, async (work) => {
      await work.query(insertUser('f'));
      work.write(insertUser('g'));
      throw new Error('later failure');
    });
    await expect(failing).rejects.toThrow('later failure');
    expect(await userIds()).toEqual([]);
  });

  it('sends the writes a settling write adds in one more statement before COMMIT, and what it throws rolls back', async () => {
    const settled = (work: UnitOfWork, failAfter: boolean) =>
      work.add({
        parts: [['made', insertUser('h')]],
        answer: [['made_id', sql`(select id from made)`]],
        settle: (answer) => {
          work.write(renameUser(String(answer['made_id']), 'settled'));
          if (failAfter) throw new Error('settled badly');
        },
      });
    await expect(unitOfWork(handle.db, async (work) => settled(work, true))).rejects.toThrow('settled badly');
    expect(await userIds()).toEqual([]);
    await unitOfWork(handle.db, async (work) => settled(work, false));
    expect(await nameOf('h')).toBe('settled');
  });

  it('gives a failure of the commit statement to the write it belongs to, which names it; others pass it on', async () => {
    await handle.db.insert(users).values({ id: 'i', email: 'i@example.com' });
    const duplicate = unitOfWork(handle.db, async (work) => {
      work.write(renameUser('i', 'unchanged'), { failed: () => undefined });
      work.write(insertUser('i'), { failed: (error) => new Error('already there', { cause: error }) });
    });
    await expect(duplicate).rejects.toThrow('already there');
    expect(await nameOf('i')).toBeNull();
  });

  it('refuses two writes of one name and two lock-taking writes', async () => {
    await expect(
      unitOfWork(handle.db, async (work) => {
        work.add({ parts: [['same', insertUser('j')]] });
        work.add({ parts: [['same', insertUser('k')]] });
      }),
    ).rejects.toThrow('two writes named "same"');
    await expect(
      unitOfWork(handle.db, async (work) => {
        work.add({ locks: true, parts: [['first', insertUser('j')]] });
        work.add({ locks: true, parts: [['second', insertUser('k')]] });
      }),
    ).rejects.toThrow('one contended lock at most');
    expect(await userIds()).toEqual([]);
  });

  it("writes a unit in a caller's transaction before it returns, and the caller's rollback undoes it", async () => {
    const rolledBack = handle.db.transaction(async (tx) => {
      await unitOfWorkIn(tx, async (work) => {
        expect(work.transactional).toBe(true);
        work.write(insertUser('l'));
      });
      expect((await tx.select().from(users).where(eq(users.id, 'l'))).length).toBe(1);
      throw new Error('caller failed');
    });
    await expect(rolledBack).rejects.toThrow('caller failed');
    expect(await userIds()).toEqual([]);
  });

  it('maps a raw row to the row drizzle would return', async () => {
    const [raw] = await queryRows(handle.db, sql`insert into organizations (name) values ('Mapped') returning *`);
    const mapped = tableRowOf(organizations, raw!);
    expect(mapped.name).toBe('Mapped');
    expect(mapped.createdAt).toBeInstanceOf(Date);
    const [json] = await queryRows(
      handle.db,
      sql`select to_jsonb(o) as row from organizations o where name = 'Mapped'`,
    );
    expect(tableRowOf(organizations, json!['row'] as Record<string, unknown>)).toEqual(mapped);
    await handle.db.delete(organizations).where(inArray(organizations.id, [mapped.id]));
  });
});

// What goes over the wire, counted by the client under drizzle (docs/decisions.md#a-unit-of-work).
describe.skipIf(missing(postgresServer))('statements of a unit of work (PostgreSQL)', () => {
  const log = createStatementLog();
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase({ statementLog: log });
  });
  afterAll(async () => {
    await handle.close();
  });

  const sent = async (work: (unit: UnitOfWork) => Promise<void>) => {
    log.take();
    await unitOfWork(handle.db, work);
    return log.take().map(statementSummary);
  };

  it('sends writes alone as one statement, with no transaction', async () => {
    expect(
      await sent(async (work) => {
        work.write(insertUser('m'));
        work.write(renameUser('m', 'same statement'));
      }),
    ).toEqual(['insert users, update users']);
  });

  it('begins its transaction with the first statement sent, and puts the lock-taking write first in the last one', async () => {
    expect(
      await sent(async (work) => {
        await work.query(sql`select id from organizations limit 1`);
        work.write(insertUser('n'));
        work.add({
          locks: true,
          parts: [['named', sql`insert into organizations (name) values ('Locked') returning id`]],
        });
      }),
    ).toEqual(['BEGIN', 'select organizations', 'insert organizations, insert users', 'COMMIT']);
  });

  it('sends nothing for a unit without writes or statements', async () => {
    expect(await sent(async () => {})).toEqual([]);
  });

  it('sends a one-statement unit that cannot commit once, then the transaction', async () => {
    expect(
      await sent(async (work) => {
        work.write(insertUser(work.transactional ? 'o' : 'p'), { required: true });
        if (!work.transactional) work.write(renameUser('missing', 'never'), { required: true });
      }),
    ).toEqual(['insert users, update users', 'BEGIN', 'insert users', 'COMMIT']);
  });
});
