import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as a real SMTP server received it. */
interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw RFC 822 message. */
  raw: string;
  /** Its Subject header, unfolded. */
  subject: string;
  /** Its text body (of a single text part, or the text/plain part of multipart/alternative), decoded. */
  text: string;
  /** Its text/html part, decoded, when it has one. */
  html: string | undefined;
}

export interface TestSmtpServer {
  /** SMTP_URL for the app: smtp://127.0.0.1:<port>. */
  url: string;
  received: ReceivedMail[];
  /** Refuse every message from now on (`550`), or accept them again. */
  refuse(refused: boolean): void;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1, on a port the system picks, that keeps what it receives. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let refusing = false;
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onRcptTo(address, _session, callback) {
      if (refusing) {
        callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
          ...parse(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(refused) {
      refusing = refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The subject and the decoded text of a message: a single text part (what nodemailer makes of a text-only email), or
 * the parts of multipart/alternative (a text and an HTML part).
 */
function parse(raw: string): { subject: string; text: string; html: string | undefined } {
  const { header, body } = splitPart(raw);
  const boundary = /multipart\/alternative;\s*boundary="?([^";]+)"?/i.exec(header('Content-Type'))?.[1];
  if (boundary === undefined) return { subject: header('Subject'), text: decodePart(header, body), html: undefined };
  const parts = body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => splitPart(part.replace(/^\r\n/, '')));
  const partOf = (type: string) => {
    const part = parts.find((candidate) => candidate.header('Content-Type').toLowerCase().startsWith(type));
    return part === undefined ? undefined : decodePart(part.header, part.body);
  };
  return { subject: header('Subject'), text: partOf('text/plain') ?? '', html: partOf('text/html') };
}

/** A message or a MIME part: its headers (unfolded, read by name) and its body. */
function splitPart(raw: string): { header: (name: string) => string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  return { header, body: raw.slice(split + 4) };
}

/** A part's body decoded from its Content-Transfer-Encoding (quoted-printable, base64, or none). */
function decodePart(header: (name: string) => string, body: string): string {
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** Quoted-printable to text: soft line breaks removed, =XX bytes decoded as UTF-8. */
function decodeQuotedPrintable(body: string): string {
  const bytes: number[] = [];
  const unwrapped = body.replace(/=\r\n/g, '');
  for (let index = 0; index < unwrapped.length; index += 1) {
    const character = unwrapped[index] as string;
    const hex = unwrapped.slice(index + 1, index + 3);
    if (character === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(character, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
