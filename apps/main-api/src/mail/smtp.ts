import { createTransport } from 'nodemailer';
import type { MailSender } from './mail-sender.js';

/**
 * Sends through the SMTP server of `url` (smtp:// or smtps://, credentials in the URL). The limits are generous
 * (a slow relay still delivers) yet bounded, so a server that stops answering fails the send instead of holding
 * it forever.
 */
export function createSmtpMailSender(options: { url: string; from: string }): MailSender {
  const transport = createTransport({
    url: options.url,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ ...message, from: options.from });
    },
    async close() {
      transport.close();
    },
  };
}
