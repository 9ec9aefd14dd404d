/** One email: plain text always, HTML when there is one. The sender adds `From` (MAIL_FROM). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Where main-api's emails go: an SMTP server (SMTP_URL), a folder of .eml files (MAIL_OUTBOX_DIR, the local
 * start), or nowhere. `send` resolves once the message is handed over and rejects when it could not be.
 */
export interface MailSender {
  /** Which adapter it is, for the logs (never its address or credentials). */
  readonly kind: 'smtp' | 'outbox' | 'none';
  send(message: MailMessage): Promise<void>;
  /** Releases connections; the app calls it when it closes. */
  close(): Promise<void>;
}
