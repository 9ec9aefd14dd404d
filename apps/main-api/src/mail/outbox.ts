import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import type { MailSender } from './mail-sender.js';

/**
 * Writes each message, as the raw RFC 822 text an SMTP server would get, to `<directory>/<time>-<uuid>.eml`
 * (the local start: open it with any mail program). Names sort by the time they were written.
 */
export function createOutboxMailSender(options: { directory: string; from: string }): MailSender {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail({ ...message, from: options.from });
      await mkdir(options.directory, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      await writeFile(path.join(options.directory, `${stamp}-${randomUUID()}.eml`), info.message as Buffer);
    },
    async close() {},
  };
}
