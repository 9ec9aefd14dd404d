import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { createSmtpMailSender } from './smtp.js';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp?.close();
});

describe('the SMTP mail sender', () => {
  it('hands the message to the server of SMTP_URL, from MAIL_FROM', async () => {
    const sender = createSmtpMailSender({ url: smtp.url, from: 'Acme <team@acme.example>' });
    const longLine = `Open https://api.example.com/v1/invitations/${'a'.repeat(60)}/accept to accept.`;
    await sender.send({ to: 'Colleague@Example.com', subject: 'Hello there', text: `Hi,\n${longLine}\n` });
    await sender.close();

    const [message] = smtp.received.slice(-1);
    // The local part keeps its case; nodemailer writes the domain (case-insensitive) in lower case.
    expect(message).toMatchObject({ from: 'team@acme.example', to: ['Colleague@example.com'], subject: 'Hello there' });
    expect(message?.raw).toMatch(/^From: Acme <team@acme\.example>\r$/m);
    expect(message?.text).toContain(longLine);
  });

  it('rejects when the server refuses the message', async () => {
    const sender = createSmtpMailSender({ url: smtp.url, from: 'team@acme.example' });
    smtp.refuse(true);
    try {
      await expect(sender.send({ to: 'nobody@example.com', subject: 'S', text: 'T' })).rejects.toMatchObject({
        responseCode: 550,
      });
    } finally {
      smtp.refuse(false);
      await sender.close();
    }
  });
});
