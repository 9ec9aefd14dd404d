import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { captureLogs } from '@platform/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';

// Invitation emails through the adapters config selects: a real SMTP server started here (SMTP_URL), and the
// outbox folder the local start uses (MAIL_OUTBOX_DIR).

const OWNER = 'user_invitation_mail_owner';

async function inviteThrough(
  t: TestApp,
  email: string,
  { owner = OWNER, ownerEmail = 'olive@acme.example', organization = 'Acme Ltd' } = {},
) {
  await insertUser(t.db, { id: owner, email: ownerEmail, firstName: 'Olive', lastName: 'Owner' });
  const organizationId = await insertOrganization(t.db, { name: organization, members: [{ userId: owner }] });
  const response = await t.app.inject({
    method: 'POST',
    url: `/v1/organizations/${organizationId}/invitations`,
    headers: await authHeader(owner),
    payload: { email, role: 'admin' },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data as { id: string; acceptUrl: string; expiresAt: string };
}

describe('with SMTP_URL', () => {
  const logs = captureLogs();
  let smtp: TestSmtpServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Acme <team@acme.example>' },
      deps: { logger: logs.logger },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('sends the invitation to the invitee through the SMTP server, and logs neither address nor accept URL', async () => {
    const invitation = await inviteThrough(t, 'New.Colleague@example.com');

    // The answer came after the server took the message.
    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message?.from).toBe('team@acme.example');
    expect(message?.to).toEqual(['New.Colleague@example.com']);
    expect(message?.subject).toBe('Olive Owner (olive@acme.example) invited you to Acme Ltd');
    expect(message?.text).toContain('invited you to join Acme Ltd as admin');
    const pageUrl = `http://main-api.test/dashboard/invitations/${invitation.id}`;
    expect(message?.text).toContain(
      `open this link and sign in with this address (New.Colleague@example.com):\r\n\r\n  ${pageUrl}`,
    );
    expect(message?.text).toContain('expires on');
    expect(message?.text).not.toMatch(/curl|Bearer/);

    expect(message?.html).toContain('invited you to join <strong>Acme Ltd</strong> as admin.');
    expect(message?.html).toContain(`<a href="${pageUrl}">Open the invitation</a>`);
    expect(message?.html).not.toMatch(/curl|Bearer/);

    const text = logs.text().toLowerCase();
    expect(text).toContain('invitation email sent');
    expect(text).not.toContain('new.colleague@example.com');
    expect(text).not.toContain(invitation.acceptUrl.toLowerCase());
    expect(text).not.toContain(pageUrl.toLowerCase());
  });

  it('says the same as HTML, with what the organization named itself escaped', async () => {
    const organization = 'Acme <img src=x onerror=alert(1)> & "Sons"';
    await inviteThrough(t, 'bob@example.com', {
      owner: 'user_invitation_mail_markup',
      ownerEmail: 'markup@acme.example',
      organization,
    });
    const [message] = smtp.received.slice(-1);
    expect(message?.text).toContain(`invited you to join ${organization} as admin.`);
    expect(message?.html).toMatch(/^<!doctype html>\r?\n<html lang="en">/);
    expect(message?.html).toContain(
      'join <strong>Acme &lt;img src=x onerror=alert(1)&gt; &amp; &quot;Sons&quot;</strong> as admin.',
    );
    expect(message?.html).not.toContain('<img');
  });
});

describe('with MAIL_OUTBOX_DIR', () => {
  let folder: string;
  let t: TestApp;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'main-api-invitation-outbox-'));
    t = await createTestApp({ env: { MAIL_OUTBOX_DIR: folder } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('writes the invitation as an .eml file', async () => {
    const invitation = await inviteThrough(t, 'ann@example.com');
    const files = await readdir(folder);
    expect(files).toEqual([expect.stringMatching(/\.eml$/)]);
    const raw = await readFile(path.join(folder, files[0] as string), 'utf8');
    expect(raw).toMatch(/^To: ann@example\.com\r$/m);
    expect(raw).toMatch(/^From: Platform <no-reply@localhost>\r$/m);
    // Quoted-printable may wrap the long URL: compare without soft line breaks.
    expect(raw.replace(/=\r\n/g, '')).toContain(`http://main-api.test/dashboard/invitations/${invitation.id}`);
  });
});
