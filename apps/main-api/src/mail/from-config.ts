import type { MailConfig } from '../config.js';
import type { MailSender } from './mail-sender.js';
import { createOutboxMailSender } from './outbox.js';
import { createSmtpMailSender } from './smtp.js';

/** Sends nothing: without SMTP_URL or MAIL_OUTBOX_DIR the inviter shares the accept URL themselves. */
const noMail: MailSender = {
  kind: 'none',
  async send() {},
  async close() {},
};

/** The mail adapter config selects: SMTP_URL, else MAIL_OUTBOX_DIR, else none. */
export function createMailSender(config: MailConfig): MailSender {
  const { transport, from } = config;
  if (transport.kind === 'smtp') return createSmtpMailSender({ url: transport.url, from });
  if (transport.kind === 'outbox') return createOutboxMailSender({ directory: transport.directory, from });
  return noMail;
}
