import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, insertOrganization, type TestApp } from '../../../test/helpers.js';
import { isActivated } from './service.js';

// Whether an organization is activated (the dashboard's Home says live is locked until it is).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('isActivated', () => {
  it('is true for an activated organization, false for one not yet activated and for an unknown one', async () => {
    expect(await isActivated(t.db, await insertOrganization(t.db))).toBe(true);
    expect(await isActivated(t.db, await insertOrganization(t.db, { activated: false }))).toBe(false);
    expect(await isActivated(t.db, randomUUID())).toBe(false);
  });
});
