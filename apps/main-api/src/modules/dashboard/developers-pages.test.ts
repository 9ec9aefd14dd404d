import { findActiveApiKey } from '@platform/api-keys';
import { organizations } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { listAllowedOrigins } from '../allowed-origins/index.js';
import { issueApiKey, listApiKeys } from '../api-keys/index.js';

// The Developers pages' API keys and allowed origins (docs/decisions.md#dashboard-pages) as a signed-in browser meets
// them: the environment shown, the secret shown once on the create form's answer, revocation, live keys locked until
// activation, origins added and removed, bad input answered on the page with nothing changed, and the role policy.

let h: DashboardHarness;
let ownerCookie: string;
let memberCookie: string;
let organizationId: string;
let otherOrganizationId: string;
let notActivatedId: string;

const OWNER = { sub: 'user_akinyi', email: 'akinyi@example.com', givenName: 'Akinyi', familyName: 'Ouma' };
const MEMBER = { sub: 'user_baraka', email: 'baraka@example.com', givenName: 'Baraka', familyName: 'Mwangi' };
const NOBODY = { actorUserId: null, requestId: null, ip: null };

const at = (path: string, org = organizationId) => `${path}${path.includes('?') ? '&' : '?'}org=${org}`;

beforeAll(async () => {
  h = await startDashboardHarness();
  const mboga = await h.organizationWith('Mama Mboga Ltd', { owner: OWNER, member: MEMBER });
  organizationId = mboga.id;
  ownerCookie = mboga.cookies.owner;
  memberCookie = mboga.cookies.member;
  otherOrganizationId = await insertOrganization(h.t.db, { name: 'Other Ltd' });
  notActivatedId = await insertOrganization(h.t.db, {
    name: 'New Shop',
    activated: false,
    members: [{ userId: OWNER.sub, role: 'owner' }],
  });
});
afterAll(async () => {
  await h?.close();
});

const keysOf = (org: string) => listApiKeys(h.t.db, org, { includeRevoked: true });

describe('the API keys page', () => {
  it('creates a test key and shows its secret once, on the answer to the form only', async () => {
    const from = at('/dashboard/developers?env=test');
    const answer = await h.post(
      at('/dashboard/developers/keys?env=test'),
      ownerCookie,
      { name: ' Till server ' },
      from,
    );
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers.location).toBeUndefined();
    const secret = />(sk_test_[^<]+)<\/textarea>/.exec(answer.body)?.[1] ?? '';
    expect(await findActiveApiKey(h.t.db, secret)).toMatchObject({ organizationId, environment: 'test' });
    const [key] = (await keysOf(organizationId)).filter((each) => each.name === 'Till server');
    expect(key).toMatchObject({ environment: 'test', lastFour: secret.slice(-4), revokedAt: null });
    expect(answer.body).toContain('it is shown only this once');

    const later = await h.get(from, ownerCookie);
    expect(later.statusCode).toBe(200);
    expect(later.body).toContain('Till server');
    expect(later.body).toContain(`sk_test_…${secret.slice(-4)}`);
    expect(later.body).not.toContain(secret);
    expect(later.body).toContain('Never');
  });

  it("creates a key with the requests a minute given, up to the organization's maximum, and refuses others", async () => {
    const limited = await insertOrganization(h.t.db, {
      name: 'Limited Ltd',
      members: [{ userId: OWNER.sub, role: 'owner' }],
    });
    await h.t.db.update(organizations).set({ maxKeyRateLimitPerMinute: 120 }).where(eq(organizations.id, limited));
    const from = at('/dashboard/developers?env=test', limited);
    const form = await h.get(from, ownerCookie);
    expect(form.body).toContain('<label for="key-rate-limit">Requests a minute (optional)</label>');
    expect(form.body).toContain('aria-describedby="key-rate-limit-hint"');
    expect(form.body).toContain('At most 120 a minute for this organization');

    const created = await h.post(
      at('/dashboard/developers/keys?env=test', limited),
      ownerCookie,
      { name: 'Fast one', rateLimitPerMinute: ' 90 ' },
      from,
    );
    expect(created.statusCode).toBe(201);
    const plain = await h.post(
      at('/dashboard/developers/keys?env=test', limited),
      ownerCookie,
      { name: 'Plain' },
      from,
    );
    expect(plain.statusCode).toBe(201);
    expect(
      (await keysOf(limited))
        .map(({ name, rateLimitPerMinute }) => ({ name, rateLimitPerMinute }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual([
      { name: 'Fast one', rateLimitPerMinute: 90 },
      { name: 'Plain', rateLimitPerMinute: null },
    ]);

    for (const refused of ['121', '0', '1.5', 'fast', '9999999']) {
      const answer = await h.post(
        at('/dashboard/developers/keys?env=test', limited),
        ownerCookie,
        { name: 'Too fast', rateLimitPerMinute: refused },
        from,
      );
      expect(answer.statusCode, refused).toBe(400);
      expect(answer.body).toContain('give a whole number from 1 to 120');
      expect(answer.body).toContain(`value="${refused}"`);
      expect(answer.body).toContain('value="Too fast"');
      expect(answer.body).toContain('aria-invalid="true"');
    }
    expect((await keysOf(limited)).map((key) => key.name)).not.toContain('Too fast');

    const sw = await h.post(
      at('/dashboard/developers/keys?env=test&lang=sw', limited),
      ownerCookie,
      { name: 'Haraka', rateLimitPerMinute: '500' },
      from,
    );
    expect(sw.statusCode).toBe(400);
    expect(sw.body).toContain('weka namba kamili kuanzia 1 hadi 120');
  });

  it('lists the keys of the environment shown only, and not those of another organization', async () => {
    await issueApiKey(
      h.t.db,
      { organizationId, userId: OWNER.sub, environment: 'live', name: 'Live till', role: 'owner' },
      600,
      NOBODY,
    );
    await issueApiKey(
      h.t.db,
      {
        organizationId: otherOrganizationId,
        userId: OWNER.sub,
        environment: 'test',
        name: 'Someone else',
        role: 'owner',
      },
      600,
      NOBODY,
    );
    const test = await h.get(at('/dashboard/developers?env=test'), ownerCookie);
    expect(test.body).not.toContain('Live till');
    expect(test.body).not.toContain('Someone else');
    const live = await h.get(at('/dashboard/developers?env=live'), ownerCookie);
    expect(live.body).toContain('Live till');
    expect(live.body).toContain('Create a live key');
  });

  it('answers a bad name on the page with the name kept, and creates nothing', async () => {
    const before = (await keysOf(organizationId)).length;
    const from = at('/dashboard/developers?env=test');
    const long = 'k'.repeat(101);
    const answer = await h.post(at('/dashboard/developers/keys?env=test'), ownerCookie, { name: long }, from);
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('role="alert"');
    expect(answer.body).toContain('must be 1-100 characters');
    expect(answer.body).toContain(`value="${long}"`);
    const empty = await h.post(at('/dashboard/developers/keys?env=test'), ownerCookie, {}, from);
    expect(empty.statusCode).toBe(400);
    expect(await keysOf(organizationId)).toHaveLength(before);
  });

  it('locks live keys until the organization is activated: the reason and a link, no form, and a refused post', async () => {
    const from = at('/dashboard/developers?env=live', notActivatedId);
    const page = await h.get(from, ownerCookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Live keys are locked until your organization is activated');
    expect(page.body).toContain('href="/dashboard/activation"');
    expect(page.body).not.toContain('Create a live key');
    const refused = await h.post(
      at('/dashboard/developers/keys?env=live', notActivatedId),
      ownerCookie,
      { name: 'x' },
      from,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('sk_live_');
    expect(await keysOf(notActivatedId)).toEqual([]);
    const test = await h.get(at('/dashboard/developers?env=test', notActivatedId), ownerCookie);
    expect(test.body).toContain('Create a test key');
  });

  it('revokes a key from its form, and answers an unknown key or another organization’s with the 404 page', async () => {
    const created = await issueApiKey(
      h.t.db,
      { organizationId, userId: OWNER.sub, environment: 'test', name: 'To revoke', role: 'owner' },
      600,
      NOBODY,
    );
    const from = at('/dashboard/developers?env=test');
    expect((await h.get(from, ownerCookie)).body).toContain(`action="/dashboard/developers/keys/${created.id}/revoke?`);
    const revoked = await h.post(at(`/dashboard/developers/keys/${created.id}/revoke?env=test`), ownerCookie, {}, from);
    expect(revoked.statusCode).toBe(303);
    expect(revoked.headers.location).toBe('/dashboard/developers?notice=revoked');
    expect((await keysOf(organizationId)).find((key) => key.id === created.id)?.revokedAt).not.toBeNull();
    expect(await findActiveApiKey(h.t.db, created.secret)).toBeNull();
    const after = await h.get(at(String(revoked.headers.location)), ownerCookie);
    expect(after.body).toContain('The key is revoked');
    expect(after.body).toContain('Revoked ');

    const theirs = await issueApiKey(
      h.t.db,
      { organizationId: otherOrganizationId, userId: OWNER.sub, environment: 'test', name: 'Theirs', role: 'owner' },
      600,
      NOBODY,
    );
    for (const id of [theirs.id, '5f0c1a5e-0000-4000-8000-000000000000', 'not-a-key']) {
      const answer = await h.post(at(`/dashboard/developers/keys/${id}/revoke`), ownerCookie, {}, from);
      expect(answer.statusCode).toBe(404);
    }
    expect((await keysOf(otherOrganizationId)).find((key) => key.id === theirs.id)?.revokedAt).toBeNull();
  });

  it('shows a member the keys without the forms, and the Developers link in the navigation', async () => {
    const page = await h.get(at('/dashboard/developers?env=test'), memberCookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Till server');
    expect(page.body).toContain('href="/dashboard/developers"');
    expect(page.body).not.toContain('/revoke');
    expect(page.body).not.toContain('Create a test key');
    expect(page.body).toContain('owners, admins and developers change them');
  });

  it('speaks Kiswahili when asked', async () => {
    const page = await h.get(at('/dashboard/developers?env=test&lang=sw'), ownerCookie);
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Funguo za API');
    expect(page.body).toContain('Unda ufunguo wa majaribio');
  });
});

describe('the allowed origins page', () => {
  const originsOf = async () => listAllowedOrigins(h.t.db, organizationId);
  const from = () => at('/dashboard/developers/origins?env=test');

  it('adds an origin to the environment shown, as the API stores it, and removes it', async () => {
    const added = await h.post(
      at('/dashboard/developers/origins?env=test'),
      ownerCookie,
      { origin: 'https://Shop.Example:443' },
      from(),
    );
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe('/dashboard/developers/origins?notice=added');
    expect(await originsOf()).toEqual({ test: ['https://shop.example'], live: [] });
    const page = await h.get(at(String(added.headers.location)), ownerCookie);
    expect(page.body).toContain('The origin is added.');
    expect(page.body).toContain('https://shop.example');

    const removed = await h.post(
      at('/dashboard/developers/origins/remove?env=test'),
      ownerCookie,
      { origin: 'https://shop.example' },
      from(),
    );
    expect(removed.statusCode).toBe(303);
    expect(await originsOf()).toEqual({ test: [], live: [] });
  });

  it('answers a bad origin, an empty one, and one not listed on the page, and changes nothing', async () => {
    const bad = await h.post(
      at('/dashboard/developers/origins?env=test'),
      ownerCookie,
      { origin: 'http://shop.example/path' },
      from(),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('The origin was not accepted');
    expect(bad.body).toContain('value="http://shop.example/path"');
    const empty = await h.post(at('/dashboard/developers/origins?env=test'), ownerCookie, { origin: ' ' }, from());
    expect(empty.statusCode).toBe(400);
    const missing = await h.post(
      at('/dashboard/developers/origins/remove?env=test'),
      ownerCookie,
      { origin: 'https://never.example' },
      from(),
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('That origin is not in the list');
    expect(await originsOf()).toEqual({ test: [], live: [] });
  });

  it('refuses an eleventh origin with the reason, keeping the ten', async () => {
    for (let index = 0; index < 10; index += 1) {
      const answer = await h.post(
        at('/dashboard/developers/origins?env=live'),
        ownerCookie,
        { origin: `https://shop${index}.example` },
        at('/dashboard/developers/origins?env=live'),
      );
      expect(answer.statusCode).toBe(303);
    }
    const full = await h.post(
      at('/dashboard/developers/origins?env=live'),
      ownerCookie,
      { origin: 'https://one-more.example' },
      at('/dashboard/developers/origins?env=live'),
    );
    expect(full.statusCode).toBe(400);
    expect(full.body).toContain('The list has 10 origins already');
    expect((await originsOf()).live).toHaveLength(10);
    expect((await originsOf()).test).toEqual([]);
  });

  it('acts on the environment its page showed, even when the cookie has kept another since', async () => {
    // The form of a test page names its organization and environment, and is posted after a live page was opened.
    const testPage = await h.get(at('/dashboard/developers/origins?env=test'), ownerCookie);
    expect(testPage.body).toContain(`action="/dashboard/developers/origins?org=${organizationId}&amp;env=test"`);
    const live = at('/dashboard/developers/origins?env=live');
    const answer = await h.post(
      at('/dashboard/developers/origins?env=test'),
      ownerCookie,
      { origin: 'https://test-only.example' },
      live,
    );
    expect(answer.statusCode).toBe(303);
    expect((await originsOf()).test).toEqual(['https://test-only.example']);
    expect((await originsOf()).live).not.toContain('https://test-only.example');
  });

  it('shows a member the origins without the forms, in Kiswahili when asked', async () => {
    const page = await h.get(at('/dashboard/developers/origins?env=live&lang=sw'), memberCookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('https://shop0.example');
    expect(page.body).toContain('Asili zinazoruhusiwa');
    expect(page.body).not.toContain('/dashboard/developers/origins/remove');
    expect(page.body).not.toContain('name="origin"');
  });
});

describe('the key form’s verified data checkbox (docs/decisions.md#verified-data)', () => {
  const DEVELOPER = { sub: 'user_chebet', email: 'chebet@example.com', givenName: 'Chebet', familyName: 'Kirui' };
  const ADMIN = { sub: 'user_daudi', email: 'daudi@example.com', givenName: 'Daudi', familyName: 'Otieno' };
  const checkbox = 'name="readVerifiedData"';

  it('is shown to owners and admins, who give the key verified_data:read, and not to developers', async () => {
    const shop = await h.organizationWith('Duka Ltd', { admin: ADMIN, developer: DEVELOPER });
    const page = (cookie: string) => h.get(at('/dashboard/developers?env=test', shop.id), cookie);
    expect((await page(shop.cookies.admin)).body).toContain(checkbox);
    expect((await page(shop.cookies.admin)).body).toContain('Can read verified personal data');
    expect((await page(shop.cookies.developer)).body).toContain('name="rateLimitPerMinute"');
    expect((await page(shop.cookies.developer)).body).not.toContain(checkbox);

    const from = at('/dashboard/developers?env=test', shop.id);
    const given = await h.post(
      at('/dashboard/developers/keys?env=test', shop.id),
      shop.cookies.admin,
      { name: 'Reader', readVerifiedData: 'yes' },
      from,
    );
    expect(given.statusCode).toBe(201);
    const plain = await h.post(
      at('/dashboard/developers/keys?env=test', shop.id),
      shop.cookies.admin,
      { name: 'Plain' },
      from,
    );
    expect(plain.statusCode).toBe(201);
    // A developer who sends the field anyway is refused on the page, and nothing is created.
    const refused = await h.post(
      at('/dashboard/developers/keys?env=test', shop.id),
      shop.cookies.developer,
      { name: 'Sneaky', readVerifiedData: 'yes' },
      from,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Only owners and admins may give a key verified personal data.');
    const keys = await keysOf(shop.id);
    expect(keys.map((key) => [key.name, key.permissions]).sort()).toEqual([
      ['Plain', []],
      ['Reader', ['verified_data:read']],
    ]);
  });

  it('speaks Kiswahili', async () => {
    const sw = await h.get(at('/dashboard/developers?env=test&lang=sw'), ownerCookie);
    expect(sw.body).toContain('Inaweza kusoma data binafsi iliyothibitishwa');
  });
});
