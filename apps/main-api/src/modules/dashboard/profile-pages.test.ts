import { users } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization, insertUser } from '../../../test/helpers.js';
import { getEditableProfile } from '../accounts/index.js';

// The Profile page and "complete your profile" (docs/decisions.md#dashboard-pages) as a signed-in browser meets them:
// the profile with its identity verification in words, the form under PATCH /v1/accounts/me's rules, refusals that
// change nothing, and the profile made for a sign-in that gave no name.

let h: DashboardHarness;
let cookie: string;

const AMANI = { sub: 'user_amani', email: 'amani@example.com', givenName: 'Amani', familyName: 'Njeri' };

beforeAll(async () => {
  h = await startDashboardHarness();
  cookie = await h.signIn(AMANI);
});
afterAll(async () => {
  await h?.close();
});

const profileOf = (userId: string) => getEditableProfile(h.t.db, userId);

describe('the Profile page', () => {
  it('shows the profile, its identity verification in words, and the form with its values', async () => {
    await h.t.db.update(users).set({ kycStatus: 'pending' }).where(eq(users.id, AMANI.sub));
    const page = await h.get('/dashboard/profile', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('amani@example.com');
    expect(page.body).toContain('Being checked');
    expect(page.body).toContain('name="firstName"');
    expect(page.body).toContain('value="Amani"');
    expect(page.body).toContain('value="Njeri"');
    expect(page.body).toContain('<a href="/dashboard/profile" aria-current="page"');
    // The address is the sign-in account's: shown, never a field.
    expect(page.body).not.toContain('name="email"');
  });

  it('saves names, phone and date of birth under the API rules, and says so', async () => {
    const saved = await h.post(
      '/dashboard/profile',
      cookie,
      { firstName: '  Amani Wanjiru ', lastName: 'Njeri', phone: '0712 345 678', dob: '1990-05-15' },
      '/dashboard/profile',
    );
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/dashboard/profile?notice=saved');
    expect(await profileOf(AMANI.sub)).toMatchObject({
      firstName: 'Amani Wanjiru',
      lastName: 'Njeri',
      phone: '+254712345678',
      dob: '1990-05-15',
    });
    const page = await h.get(String(saved.headers.location), cookieOf(saved, cookie));
    expect(page.body).toContain('Your details are saved.');
    expect(page.body).toContain('value="+254712345678"');
    // The API answers the same profile.
    const me = await h.t.app.inject({
      method: 'GET',
      url: '/v1/accounts/me',
      headers: { authorization: `Bearer ${await h.apiToken(AMANI.sub)}` },
    });
    expect(me.json().data).toMatchObject({ name: 'Amani Wanjiru Njeri', phone: '+254712345678', dob: '1990-05-15' });
  });

  it('answers bad input with the form again (400), the values kept and each problem beside its field, changing nothing', async () => {
    const before = await profileOf(AMANI.sub);
    const refused = await h.post(
      '/dashboard/profile',
      cookie,
      { firstName: 'Amani', lastName: '   ', phone: 'call me', dob: '2999-01-01' },
      '/dashboard/profile',
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain('Nothing was saved');
    expect(refused.body).toContain('Check Phone number: must be a valid phone number');
    expect(refused.body).toContain('value="call me"');
    expect(refused.body).toContain('value="2999-01-01"');
    expect(refused.body).toContain('aria-invalid="true"');
    expect(refused.body).toContain('must not be in the future');
    expect(await profileOf(AMANI.sub)).toEqual(before);
  });

  it('treats an empty optional field with nothing stored as no change', async () => {
    await insertUser(h.t.db, { id: 'user_plain', email: 'plain@example.com', firstName: 'Plain', lastName: 'User' });
    const plain = await h.signIn({ sub: 'user_plain', email: 'plain@example.com' });
    const saved = await h.post(
      '/dashboard/profile',
      plain,
      { firstName: 'Plainer', lastName: 'User', phone: '', dob: '' },
      '/dashboard/profile',
    );
    expect(saved.statusCode).toBe(303);
    expect(await profileOf('user_plain')).toMatchObject({ firstName: 'Plainer', phone: null, dob: null });
  });

  it('is the user’s own: every member sees it, whatever their role', async () => {
    await insertOrganization(h.t.db, { name: 'Readers Ltd', members: [{ userId: AMANI.sub, role: 'member' }] });
    const home = await h.get('/dashboard', cookie);
    expect(home.body).toContain('href="/dashboard/profile"');
    expect((await h.get('/dashboard/profile', cookie)).statusCode).toBe(200);
  });

  it('speaks Kiswahili when asked', async () => {
    const page = await h.get('/dashboard/profile?lang=sw', cookie);
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Wasifu wako');
    expect(page.body).toContain('Hifadhi maelezo yako');
  });
});

describe('completing the profile of a sign-in without a name', () => {
  const NEEMA = { sub: 'user_neema_pages', email: 'neema.pages@example.com' };

  it('keeps the provider’s address, refuses a missing name, then makes the profile and goes to the page asked for', async () => {
    const signedIn = await h.signIn(NEEMA);
    const asked = await h.get('/dashboard/settings?lang=sw', signedIn);
    expect(asked.statusCode).toBe(303);
    expect(asked.headers.location).toBe('/dashboard/profile/new');
    const withReturn = cookieOf(asked, signedIn);
    const form = await h.get('/dashboard/profile/new', withReturn);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Kamilisha wasifu wako');
    expect(form.body).toContain('neema.pages@example.com');
    expect(form.body).not.toContain('name="email"');
    // No page opens before it: the navigation is not shown.
    expect(form.body).not.toContain('href="/dashboard/profile"');

    const refused = await h.post(
      '/dashboard/profile/new',
      withReturn,
      { firstName: 'Neema', lastName: '' },
      '/dashboard/profile/new',
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('value="Neema"');
    expect(await h.t.db.select().from(users).where(eq(users.id, NEEMA.sub))).toEqual([]);

    const made = await h.post(
      '/dashboard/profile/new',
      withReturn,
      { firstName: 'Neema', lastName: 'Achieng' },
      '/dashboard/profile/new',
    );
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe('/dashboard/settings?lang=sw');
    expect(await profileOf(NEEMA.sub)).toMatchObject({
      email: 'neema.pages@example.com',
      firstName: 'Neema',
      lastName: 'Achieng',
    });
    const profile = await h.get('/dashboard/profile', cookieOf(made, withReturn));
    expect(profile.statusCode).toBe(200);
    // Made once: the form sends a user with a profile to Home.
    const again = await h.get('/dashboard/profile/new', cookieOf(made, withReturn));
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe('/dashboard');
  });

  it('sends a browser without any sign-in from the form to sign in', async () => {
    const page = await h.t.app.inject({ method: 'GET', url: '/dashboard/profile/new' });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/login');
  });
});
