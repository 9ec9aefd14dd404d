import { randomUUID } from 'node:crypto';
import { organizationInvitations, verificationSessions } from '@platform/db/schema';
import { commitMove } from '@platform/verification-lifecycle';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';

// Onboarding in the dashboard (docs/decisions.md#dashboard-pages): creating an organization with the form (its test
// credit included), an invitation opened from its email and accepted, and going live through the business
// verification's hosted page; each read back through the API, each refusal changing nothing.

const PLATFORM_ORGANIZATION_ID = randomUUID();
const VERIFY_URL = 'https://verify.test.example';

const FOUNDER = { sub: 'user_onb_founder', email: 'founder@duka.example', givenName: 'Achieng', familyName: 'Otieno' };
const INVITEE = { sub: 'user_onb_invitee', email: 'Baraka@Duka.example', givenName: 'Baraka', familyName: 'Mwangi' };
const STRANGER = { sub: 'user_onb_stranger', email: 'stranger@else.example', givenName: 'Sam', familyName: 'Kip' };
const ADMIN = { sub: 'user_onb_admin', email: 'admin@duka.example', givenName: 'Amani', familyName: 'Njeri' };

let h: DashboardHarness;
const cookies: Record<string, string> = {};
/** The start form (the organization switcher is a GET form to the same page). */
const START_FORM = 'method="post" action="/dashboard/activation"';

beforeAll(async () => {
  h = await startDashboardHarness({ env: { PLATFORM_ORGANIZATION_ID, VERIFY_URL } });
  await insertOrganization(h.t.db, { id: PLATFORM_ORGANIZATION_ID, name: 'Platform' });
  for (const account of [FOUNDER, INVITEE, STRANGER, ADMIN]) cookies[account.sub] = await h.signIn(account);
});
afterAll(async () => {
  await h?.close();
});

const cookie = (account: { sub: string }) => cookies[account.sub] ?? '';

async function api(userId: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  return h.t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${await h.apiToken(userId)}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

const organizationsOf = async (userId: string) =>
  (await api(userId, 'GET', '/v1/organizations')).json().data as Array<{
    id: string;
    name: string;
    role: string;
    kraPin: string | null;
    address: string | null;
    billingEmail: string | null;
  }>;

/** An organization created with the form by the founder; its id. */
async function createdWithTheForm(name: string): Promise<string> {
  const answer = await h.post(
    '/dashboard/organizations/new',
    cookie(FOUNDER),
    { name },
    '/dashboard/organizations/new',
  );
  expect(answer.statusCode).toBe(303);
  const id = new URL(String(answer.headers.location), 'http://x').searchParams.get('org');
  if (id === null) throw new Error('no organization in the redirect');
  return id;
}

describe('creating an organization', () => {
  it('links to the form from a Home without organizations', async () => {
    const home = await h.get('/dashboard', cookie(STRANGER));
    expect(home.body).toContain('You do not belong to any organization yet.');
    expect(home.body).toContain('<a href="/dashboard/organizations/new">Create an organization</a>');
    const form = await h.get('/dashboard/organizations/new', cookie(STRANGER));
    expect(form.statusCode).toBe(200);
    for (const field of ['name', 'kraPin', 'address', 'billingEmail']) expect(form.body).toContain(`name="${field}"`);
  });

  it('creates it with the fields typed, the user its owner, with test credit, and says so on Home', async () => {
    const answer = await h.post(
      '/dashboard/organizations/new',
      cookie(FOUNDER),
      {
        name: '  Duka Lending  ',
        kraPin: 'p051234567x',
        address: 'Moi Avenue 12\r\nNairobi',
        billingEmail: 'accounts@duka.example',
      },
      '/dashboard/organizations/new',
    );
    expect(answer.statusCode).toBe(303);
    const location = String(answer.headers.location);
    expect(location).toMatch(/^\/dashboard\?org=[0-9a-f-]{36}&notice=created$/);
    const id = new URL(location, 'http://x').searchParams.get('org');
    const [created] = (await organizationsOf(FOUNDER.sub)).filter((each) => each.id === id);
    expect(created).toMatchObject({
      name: 'Duka Lending',
      role: 'owner',
      kraPin: 'P051234567X',
      address: 'Moi Avenue 12\nNairobi',
      billingEmail: 'accounts@duka.example',
    });
    const wallet = await api(FOUNDER.sub, 'GET', `/v1/organizations/${id}/wallets/test`);
    expect(wallet.json().data.available).toBe(h.t.config.testWalletCredit);
    expect(h.t.config.testWalletCredit).toBeGreaterThan(0);

    const home = await h.get(location, cookie(FOUNDER));
    expect(home.body).toContain('The organization Duka Lending is created.');
    expect(home.body).toContain('<a href="/dashboard/organizations/new">Create an organization</a>');
  });

  it('answers the form again with what is wrong and the values kept, creating nothing', async () => {
    const before = (await organizationsOf(FOUNDER.sub)).length;
    const answer = await h.post(
      '/dashboard/organizations/new',
      cookie(FOUNDER),
      { name: '   ', kraPin: 'P0512', address: 'One', billingEmail: 'not-an-address' },
      '/dashboard/organizations/new',
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('The organization was not created');
    expect(answer.body).toContain('Enter a name of 1 to 100 characters');
    expect(answer.body).toContain('Enter the KRA PIN as a letter, nine digits and a letter');
    expect(answer.body).toContain('Enter an email address such as');
    expect(answer.body).not.toContain('Enter at most 4 lines');
    expect(answer.body).toContain('value="P0512"');
    expect(answer.body).toContain('value="not-an-address"');
    expect(answer.body).toContain('>One</textarea>');
    expect(answer.body).toContain('aria-invalid="true"');

    const markup = await h.post(
      '/dashboard/organizations/new',
      cookie(FOUNDER),
      { name: 'x'.repeat(101), address: 'a\nb\nc\nd\ne' },
      '/dashboard/organizations/new',
    );
    expect(markup.statusCode).toBe(400);
    expect(markup.body).toContain('Enter at most 4 lines');
    expect((await organizationsOf(FOUNDER.sub)).length).toBe(before);
  });

  it('refuses the form without its token', async () => {
    const before = (await organizationsOf(FOUNDER.sub)).length;
    const answer = await h.t.app.inject({
      method: 'POST',
      url: '/dashboard/organizations/new',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie(FOUNDER) },
      payload: 'name=Sneaky',
    });
    expect(answer.statusCode).toBe(403);
    expect((await organizationsOf(FOUNDER.sub)).length).toBe(before);
  });

  it('speaks Kiswahili', async () => {
    const form = await h.get('/dashboard/organizations/new?lang=sw', cookie(STRANGER));
    expect(form.body).toContain('<html lang="sw"');
    expect(form.body).toContain('Jina la shirika');
    const home = await h.get('/dashboard?lang=sw', cookieOf(form, cookie(STRANGER)));
    expect(home.body).toContain('<a href="/dashboard/organizations/new">Unda shirika</a>');
    await h.get('/dashboard?lang=en', cookieOf(form, cookie(STRANGER)));
  });
});

describe('an invitation opened from its email', () => {
  let organizationId: string;

  beforeAll(async () => {
    organizationId = await createdWithTheForm('Invite Ltd');
  });

  const invite = async (email: string, role = 'developer') => {
    const answer = await api(FOUNDER.sub, 'POST', `/v1/organizations/${organizationId}/invitations`, { email, role });
    expect(answer.statusCode).toBe(201);
    return answer.json().data.id as string;
  };

  it('shows the organization, role, inviter and expiry, and accepts it as the profile whose address it names', async () => {
    const id = await invite('baraka@duka.example');
    const page = await h.get(`/dashboard/invitations/${id}`, cookie(INVITEE));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Invitation to Invite Ltd');
    expect(page.body).toContain('Achieng Otieno (founder@duka.example)');
    expect(page.body).toContain('<dd>Developer</dd>');
    expect(page.body).toContain('EAT');
    expect(page.body).toContain(`action="/dashboard/invitations/${id}/accept"`);

    const accepted = await h.post(
      `/dashboard/invitations/${id}/accept`,
      cookie(INVITEE),
      {},
      `/dashboard/invitations/${id}`,
    );
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe(`/dashboard?org=${organizationId}&notice=joined`);
    expect(await organizationsOf(INVITEE.sub)).toEqual([
      expect.objectContaining({ id: organizationId, role: 'developer' }),
    ]);
    const home = await h.get(String(accepted.headers.location), cookie(INVITEE));
    expect(home.body).toContain('You joined Invite Ltd.');

    const again = await h.get(`/dashboard/invitations/${id}`, cookie(INVITEE));
    expect(again.body).toContain('has been accepted already');
    expect(again.body).not.toContain('/accept"');
    const twice = await h.post(`/dashboard/invitations/${id}/accept`, cookie(INVITEE), {}, '/dashboard');
    expect(twice.statusCode).toBe(409);
  });

  it('says a revoked or expired invitation cannot be accepted, with no form, and accepts nothing', async () => {
    const revoked = await invite(ADMIN.email);
    expect(
      (await api(FOUNDER.sub, 'DELETE', `/v1/organizations/${organizationId}/invitations/${revoked}`)).statusCode,
    ).toBe(200);
    const page = await h.get(`/dashboard/invitations/${revoked}`, cookie(ADMIN));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('was withdrawn by the organization');
    expect(page.body).not.toContain('/accept"');
    const post = await h.post(`/dashboard/invitations/${revoked}/accept`, cookie(ADMIN), {}, '/dashboard');
    expect(post.statusCode).toBe(409);
    expect(post.body).toContain('was withdrawn by the organization');

    const expired = await invite(ADMIN.email, 'admin');
    await h.t.db
      .update(organizationInvitations)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(organizationInvitations.id, expired));
    const old = await h.get(`/dashboard/invitations/${expired}`, cookie(ADMIN));
    expect(old.body).toContain('This invitation expired on');
    expect(old.body).not.toContain('/accept"');
    expect((await h.post(`/dashboard/invitations/${expired}/accept`, cookie(ADMIN), {}, '/dashboard')).statusCode).toBe(
      409,
    );
    expect(await organizationsOf(ADMIN.sub)).toEqual([]);
  });

  it("tells someone else that it is another address's, without its details, and accepts nothing", async () => {
    const id = await invite('someone@duka.example');
    const page = await h.get(`/dashboard/invitations/${id}`, cookie(STRANGER));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('was sent to another email address');
    expect(page.body).not.toContain('Invite Ltd');
    expect(page.body).not.toContain('someone@duka.example');
    const post = await h.post(`/dashboard/invitations/${id}/accept`, cookie(STRANGER), {}, '/dashboard');
    expect(post.statusCode).toBe(409);
    expect(await organizationsOf(STRANGER.sub)).toEqual([]);
  });

  it('answers an unknown id and one that is not a UUID with the 404 page', async () => {
    for (const id of [randomUUID(), 'not-an-invitation']) {
      for (const answer of [
        await h.get(`/dashboard/invitations/${id}`, cookie(INVITEE)),
        await h.post(`/dashboard/invitations/${id}/accept`, cookie(INVITEE), {}, '/dashboard'),
      ]) {
        expect(answer.statusCode).toBe(404);
        expect(answer.body).toContain('This page does not exist.');
      }
    }
  });

  it('sends a browser without a session to sign in, and back to the invitation after it', async () => {
    const id = await invite('later@duka.example');
    const first = await h.t.app.inject({ method: 'GET', url: `/v1/invitations/${id}/accept` });
    expect(first.headers.location).toBe(`/dashboard/invitations/${id}`);
    const page = await h.t.app.inject({ method: 'GET', url: String(first.headers.location) });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/login');
  });

  it('speaks Kiswahili', async () => {
    const id = await invite('baraka.two@duka.example');
    const page = await h.get(`/dashboard/invitations/${id}?lang=sw`, cookie(STRANGER));
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Mwaliko huu ulitumwa kwa anwani nyingine');
    await h.get('/dashboard?lang=en', cookieOf(page, cookie(STRANGER)));
  });
});

describe('going live', () => {
  let organizationId: string;

  beforeAll(async () => {
    organizationId = await createdWithTheForm('Going Live Ltd');
    const invited = await api(FOUNDER.sub, 'POST', `/v1/organizations/${organizationId}/invitations`, {
      email: ADMIN.email,
      role: 'admin',
    });
    const accepted = await h.post(
      `/dashboard/invitations/${invited.json().data.id}/accept`,
      cookie(ADMIN),
      {},
      `/dashboard/invitations/${invited.json().data.id}`,
    );
    expect(accepted.statusCode).toBe(303);
  });

  const hostedPageOf = async (sessionId: string) => {
    const [row] = await h.t.db
      .select({ locale: verificationSessions.locale, returnUrl: verificationSessions.returnUrl })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, sessionId));
    return row;
  };
  const activationOf = async () =>
    (await api(FOUNDER.sub, 'GET', `/v1/organizations/${organizationId}/activation`)).json().data;

  it("shows an owner why live is locked and starts the verification on the hosted page's origin", async () => {
    const page = await h.get(`/dashboard/activation?org=${organizationId}`, cookie(FOUNDER));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Live API keys and live wallet top-ups stay locked until Going Live Ltd is activated');
    expect(page.body).toContain('the business verification has not been started');
    expect(page.body).toContain('Start the business verification');
    expect(page.body).toContain(START_FORM);
    // The hosted page's origin, beside the identity provider's that every page allows (the sign-out form's redirect).
    expect(page.headers['content-security-policy']).toMatch(/form-action 'self' https:\/\/verify\.test\.example[ ;]/);

    const started = await h.post(
      '/dashboard/activation',
      cookie(FOUNDER),
      {},
      `/dashboard/activation?org=${organizationId}`,
    );
    expect(started.statusCode).toBe(303);
    const state = await activationOf();
    expect(state.state).toBe('verifying');
    expect(started.headers.location).toBe(`${VERIFY_URL}/session/${state.session.sessionId}`);
    // The hosted page speaks the dashboard's language and its final page leads back here.
    expect(await hostedPageOf(state.session.sessionId)).toEqual({
      locale: 'en',
      returnUrl: `http://main-api.test/dashboard/activation?org=${organizationId}`,
    });

    const open = await h.get(`/dashboard/activation?org=${organizationId}`, cookie(FOUNDER));
    expect(open.body).toContain('the business verification is open');
    expect(open.body).toContain('Continue the business verification');
    const again = await h.post(
      '/dashboard/activation',
      cookie(FOUNDER),
      {},
      `/dashboard/activation?org=${organizationId}`,
    );
    expect(again.headers.location).toBe(started.headers.location);
    expect((await activationOf()).session.sessionId).toBe(state.session.sessionId);
  });

  it('shows a member without organization:activate the state and no form, and refuses the form', async () => {
    const page = await h.get(`/dashboard/activation?org=${organizationId}`, cookie(ADMIN));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Only an owner of the organization can start');
    expect(page.body).not.toContain(START_FORM);
    const before = await activationOf();
    const post = await h.post(
      '/dashboard/activation',
      cookie(ADMIN),
      {},
      `/dashboard/activation?org=${organizationId}`,
    );
    expect(post.statusCode).toBe(403);
    expect(await activationOf()).toEqual(before);
  });

  it('says what a rejected verification said, and starts a new one; nothing to do while it is reviewed', async () => {
    const lifecycle = { platformOrganizationId: PLATFORM_ORGANIZATION_ID };
    const { sessionId } = (await activationOf()).session;
    await commitMove(h.t.db, { sessionId, to: 'processing', actor: 'hosted_page', now: new Date() }, lifecycle);
    const reviewed = await h.get(`/dashboard/activation?org=${organizationId}`, cookie(FOUNDER));
    expect(reviewed.body).toContain('the documents are being reviewed');
    expect(reviewed.body).not.toContain(START_FORM);
    await commitMove(
      h.t.db,
      {
        sessionId,
        to: 'rejected',
        actor: 'reviewer:user_platform_reviewer',
        now: new Date(),
        reason: 'The CR12 is unreadable',
      },
      lifecycle,
    );
    const rejected = await h.get(`/dashboard/activation?org=${organizationId}`, cookie(FOUNDER));
    expect(rejected.body).toContain('was rejected (The CR12 is unreadable)');
    expect(rejected.body).toContain('Start the business verification');
    const restarted = await h.post(
      '/dashboard/activation',
      cookie(FOUNDER),
      {},
      `/dashboard/activation?org=${organizationId}&lang=sw`,
    );
    expect(restarted.statusCode).toBe(303);
    const next = (await activationOf()).session.sessionId;
    expect(next).not.toBe(sessionId);
    expect((await hostedPageOf(next))?.locale).toBe('sw');
  });

  it('says live is unlocked once activated, with the way to live keys and no form', async () => {
    const activated = await insertOrganization(h.t.db, { name: 'Live Ltd', members: [{ userId: FOUNDER.sub }] });
    const page = await h.get(`/dashboard/activation?org=${activated}`, cookie(FOUNDER));
    expect(page.body).toContain('live API keys and live top-ups are unlocked');
    expect(page.body).toContain('href="/dashboard/developers?env=live"');
    expect(page.body).not.toContain(START_FORM);
    const post = await h.post('/dashboard/activation', cookie(FOUNDER), {}, `/dashboard/activation?org=${activated}`);
    expect(post.statusCode).toBe(303);
    expect(post.headers.location).toBe('/dashboard/activation');
  });

  it("answers another organization's activation with the 404 page", async () => {
    const other = await insertOrganization(h.t.db, { name: 'Other Ltd', activated: false });
    const page = await h.get(`/dashboard/activation?org=${other}`, cookie(FOUNDER));
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('Other Ltd');
  });

  it('speaks Kiswahili', async () => {
    const page = await h.get(`/dashboard/activation?org=${organizationId}&lang=sw`, cookie(ADMIN));
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Kuanza huduma halisi');
    expect(page.body).toContain('Ni mmiliki wa shirika pekee');
  });
});

describe('going live on a server without the business verification', () => {
  let bare: DashboardHarness;
  afterAll(async () => {
    await bare?.close();
  });

  it('says it is not available, and the form starts nothing', async () => {
    bare = await startDashboardHarness();
    const {
      id,
      cookies: { owner },
    } = await bare.organizationWith('Not Live Ltd', { owner: FOUNDER }, { activated: false });
    const page = await bare.get(`/dashboard/activation?org=${id}`, owner);
    expect(page.body).toContain('Going live is not available on this server');
    expect(page.body).not.toContain(START_FORM);
    const post = await bare.post('/dashboard/activation', owner, {}, `/dashboard/activation?org=${id}`);
    expect(post.statusCode).toBe(404);
    expect(post.body).toContain('Going live is not available on this server');
  });
});
