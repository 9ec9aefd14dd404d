// The excerpt of a receiver's answer kept with each try, for the customer's delivery log
// (docs/decisions.md#response-excerpts). It is scrubbed once, when the answer arrives, so nothing secret-like is ever
// stored: the log shows what was kept, not what was received.

/** At most this many bytes of an answer's body are read; the rest is never received. */
export const EXCERPT_READ_BYTES = 1024;

/** At most this many characters of the scrubbed text are kept. */
export const EXCERPT_MAX_CHARACTERS = 300;

export const REDACTED = '[redacted]';

// Controls (C0, DEL, C1), the invisible format characters (zero-width, bidirectional overrides, BOM) that can make a
// log line read other than it is, line and paragraph separators, and the replacement character of a body cut
// mid-character.
const CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}\u2028\u2029\ufffd]/gu;

// `"api_key": "..."`, `token=...`, `Authorization: ...`: the value of any field whose name says it is secret.
const SECRET_FIELD =
  /(["']?)([\w.-]*(?:secret|token|passw(?:or)?d|pwd|api[_-]?key|apikey|auth|signature|session|cookie|credential|private[_-]?key|access[_-]?key)[\w.-]*)\1(\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'[^']*'|(?:(?:Bearer|Basic|Token)\s+)?[^\s,;&}\]]+)/giu;
const AUTH_SCHEME = /\b(Bearer|Basic|Token)\s+[\w.~+/=-]+/giu;
const JWT = /\beyJ[\w-]*\.[\w-]+\.[\w-]*/gu;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gu;
/** A run that may be a key: long enough, and mixed like generated keys are. */
const TOKEN_LIKE = /[\w+/=-]{20,}/gu;
const WEBHOOK_EVENT_ID = /^msg_[0-9A-Za-z]{27}$/u;

function looksGenerated(run: string): boolean {
  if (WEBHOOK_EVENT_ID.test(run)) return false; // the event's own id, echoed back: the receiver saw it in the body
  if (/^[0-9a-f]{32,}$/iu.test(run)) return true; // hex digests and keys
  if (/^(?:whsec|sk|pk|rk|key|tok)_/iu.test(run)) return true;
  return /[0-9]/u.test(run) && /[a-z]/u.test(run) && /[A-Z]/u.test(run);
}

/**
 * What the log keeps of an answer's body: control and invisible characters replaced by spaces and runs of
 * whitespace made one, then the values of secret-named fields, authorization schemes, JWTs, email addresses and
 * anything that looks like a generated key replaced by `[redacted]`, then at most EXCERPT_MAX_CHARACTERS characters
 * (an ellipsis marks a cut). Null when nothing is left.
 */
export function scrubResponseExcerpt(body: string | undefined | null): string | null {
  if (body === undefined || body === null) return null;
  const text = body.replace(CONTROL_CHARACTERS, ' ').replace(/\s+/gu, ' ').trim();
  const scrubbed = text
    .replace(SECRET_FIELD, (_match, quote: string, name: string, separator: string, value: string) => {
      const quoted = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : '';
      return `${quote}${name}${quote}${separator}${quoted}${REDACTED}${quoted}`;
    })
    .replace(AUTH_SCHEME, (_match, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(EMAIL, REDACTED)
    .replace(TOKEN_LIKE, (run) => (looksGenerated(run) ? REDACTED : run));
  if (scrubbed === '') return null;
  const characters = [...scrubbed];
  return characters.length <= EXCERPT_MAX_CHARACTERS
    ? scrubbed
    : `${characters.slice(0, EXCERPT_MAX_CHARACTERS - 1).join('')}…`;
}
