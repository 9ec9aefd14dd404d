import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';

/** Every line a logger wrote, as text and parsed. */
export interface LogCapture {
  /** Pass it as the app's logger: it keeps every line, at every level. */
  logger: FastifyBaseLogger;
  lines: Array<Record<string, unknown>>;
  /** All lines as written, one per line. */
  text(): string;
}

/** A pino logger at `trace`, so no line is hidden by its level, that keeps what it writes. */
export function captureLogs(): LogCapture {
  const written: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'trace' },
    {
      write(line: string) {
        written.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, lines, text: () => written.join('') };
}

// Shapes of the platform's secrets, found even when a test did not name the value: API keys (and Paystack
// secret keys), webhook signing secrets and bearer tokens.
const secretShapes: ReadonlyArray<[string, RegExp]> = [
  ['an API key', /sk_(?:live|test)_[A-Za-z0-9_-]{8,}/],
  ['a webhook signing secret', /whsec_[A-Za-z0-9+/=]{8,}/],
  ['a bearer token', /Bearer\s+[A-Za-z0-9\-._~+/]{8,}/i],
  ['a JWT', /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\./],
];

/**
 * What leaked into `text`: the names of the `secrets` found in it (each also looked for percent-encoded and
 * JSON-escaped), and any text shaped like an API key, signing secret, bearer token or JWT. Empty when clean.
 */
export function secretsIn(text: string, secrets: Record<string, string>): string[] {
  const found: string[] = [];
  const lowered = text.toLowerCase();
  for (const [name, secret] of Object.entries(secrets)) {
    const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
    if ([...forms].some((form) => lowered.includes(form.toLowerCase()))) found.push(name);
  }
  for (const [name, shape] of secretShapes) {
    const match = shape.exec(text);
    if (match !== null) found.push(`${name} (${match[0].slice(0, 16)}…)`);
  }
  return found;
}
