import { organizations } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MEMBER, OWNER, organizationsSuite } from '../../../test/organizations-suite.js';

// An organization's address and billing email (docs/decisions.md#organization-address-and-billing-email): set at
// creation or later, cleared with null, checked for shape, recorded in the audit log.

const { t, call, organizationWithTeam, eventsOf, organizationCount } = organizationsSuite();

const ADDRESS = '  Kilimani Business Centre, 3rd floor \r\n\r\nArgwings Kodhek Road\nP.O. Box 12345-00100\r Nairobi ';
const STORED_ADDRESS = 'Kilimani Business Centre, 3rd floor\nArgwings Kodhek Road\nP.O. Box 12345-00100\nNairobi';

async function rowOf(id: string) {
  const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

describe('address and billing email at creation', () => {
  it('stores the address as trimmed lines and the billing email trimmed, and answers both', async () => {
    const response = await call(OWNER, 'POST', '/v1/organizations', {
      name: 'Kamau Hardware',
      address: ADDRESS,
      billingEmail: ' Accounts@Kamau.co.ke ',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ address: STORED_ADDRESS, billingEmail: 'Accounts@Kamau.co.ke' });
    const id = response.json().data.id as string;
    expect(await rowOf(id)).toMatchObject({ address: STORED_ADDRESS, billingEmail: 'Accounts@Kamau.co.ke' });
    const [created] = await eventsOf(id);
    expect(created?.details).toMatchObject({ address: STORED_ADDRESS, billingEmail: 'Accounts@Kamau.co.ke' });
  });

  it.each([
    ['five lines of address', { address: 'a\nb\nc\nd\ne' }, '/address', 'must be at most 4 lines'],
    ['a blank address', { address: ' \n ' }, '/address', 'must be 1-200 characters after trimming spaces'],
    ['a 201-character address', { address: 'x'.repeat(201) }, '/address', 'must be 1-200 characters'],
    ['a tab in the address', { address: 'Box\t12' }, '/address', 'control characters other than line breaks'],
    ['an email without @', { billingEmail: 'accounts.kamau.co.ke' }, '/billingEmail', 'must be an email address'],
    ['an email without a domain dot', { billingEmail: 'accounts@kamau' }, '/billingEmail', 'must be an email'],
    ['an email with a space', { billingEmail: 'acc ounts@kamau.co.ke' }, '/billingEmail', 'must be an email'],
    ['a 255-character email', { billingEmail: `${'a'.repeat(245)}@kamau.com` }, '/billingEmail', 'at most 254'],
  ])('answers 400 for %s naming the field, creating nothing', async (_label, fields, path, message) => {
    const before = await organizationCount();
    const response = await call(OWNER, 'POST', '/v1/organizations', { name: 'Kamau Hardware', ...fields });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      details: [expect.objectContaining({ path, message: expect.stringContaining(message) })],
    });
    expect(await organizationCount()).toBe(before);
  });

  it('names every failed field at once', async () => {
    const response = await call(OWNER, 'POST', '/v1/organizations', {
      name: 'Kamau Hardware',
      address: 'a\nb\nc\nd\ne',
      billingEmail: 'nobody',
    });
    expect(response.statusCode).toBe(400);
    const paths = (response.json().details as Array<{ path: string }>).map((detail) => detail.path);
    expect(paths.sort()).toEqual(['/address', '/billingEmail']);
  });
});

describe('address and billing email later', () => {
  it('sets, changes and clears them, recording each change, and members read them', async () => {
    const id = await organizationWithTeam();
    const set = await call(OWNER, 'PATCH', `/v1/organizations/${id}`, {
      address: 'P.O. Box 1-00100\nNairobi',
      billingEmail: 'billing@wanjiku.co.ke',
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({
      address: 'P.O. Box 1-00100\nNairobi',
      billingEmail: 'billing@wanjiku.co.ke',
    });
    const read = await call(MEMBER, 'GET', `/v1/organizations/${id}`);
    expect(read.json().data).toMatchObject({
      address: 'P.O. Box 1-00100\nNairobi',
      billingEmail: 'billing@wanjiku.co.ke',
    });

    const cleared = await call(OWNER, 'PATCH', `/v1/organizations/${id}`, { address: null, billingEmail: null });
    expect(cleared.json().data).toMatchObject({ address: null, billingEmail: null });
    expect(await rowOf(id)).toMatchObject({ address: null, billingEmail: null });

    const updates = (await eventsOf(id)).filter((event) => event.action === 'organization.updated');
    expect(updates.map((event) => event.details)).toEqual([
      {
        address: { from: null, to: 'P.O. Box 1-00100\nNairobi' },
        billingEmail: { from: null, to: 'billing@wanjiku.co.ke' },
      },
      {
        address: { from: 'P.O. Box 1-00100\nNairobi', to: null },
        billingEmail: { from: 'billing@wanjiku.co.ke', to: null },
      },
    ]);
  });

  it('changes nothing when one field of the update is wrong', async () => {
    const id = await organizationWithTeam();
    const response = await call(OWNER, 'PATCH', `/v1/organizations/${id}`, {
      name: 'Wanjiku Group',
      billingEmail: 'not an address',
    });
    expect(response.statusCode).toBe(400);
    expect(await rowOf(id)).toMatchObject({ name: 'Wanjiku Ventures', billingEmail: null });
  });

  it('answers 403 to a member who tries to set them', async () => {
    const id = await organizationWithTeam();
    const response = await call(MEMBER, 'PATCH', `/v1/organizations/${id}`, { billingEmail: 'me@example.com' });
    expect(response.statusCode).toBe(403);
    expect(await rowOf(id)).toMatchObject({ billingEmail: null });
  });
});
