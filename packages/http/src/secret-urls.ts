/** A route whose URL carries a secret, and how to recognise its paths. */
type SecretRoute = {
  /** As registered: `/v1/billing/webhooks/mpesa/:token`. */
  pattern: string;
  /** Its static start, normalised (`/v1/billing/webhooks/mpesa/`); the whole path when it has no parameter. */
  prefix: string;
  parametric: boolean;
  /** Finds its URLs in free text (error messages), however they are cased, slashed or escaped. */
  inText: RegExp;
};

const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;
// Where a URL ends in free text: blanks, quotes, brackets and separators never part of our tokens.
const URL_REST = String.raw`[^\s"'<>\x60()[\]{},;\\]`;

/** Decodes each `%XX` run it can; a run that is not UTF-8 is read byte by byte, so nothing stays hidden. */
function decodePercents(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
  });
}

/** The path of a URL as a router would see it if it were lenient: decoded, lower case, single slashes. */
function normalisedPath(url: string): string {
  let path = url.replace(ORIGIN, '').split(/[?#]/, 1)[0] ?? '';
  // Twice-escaped characters too (%252F), within reason.
  for (let round = 0; round < 3 && path.includes('%'); round += 1) {
    const decoded = decodePercents(path);
    if (decoded === path) break;
    path = decoded;
  }
  return path.toLowerCase().replace(/\/{2,}/g, '/');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regular expression for `prefix` written with any case, repeated slashes, or percent-escapes. */
function lenientPattern(prefix: string): string {
  return [...prefix]
    .map((character) => {
      if (character === '/') return '(?:/|%2f)+';
      const hex = character.charCodeAt(0).toString(16).padStart(2, '0');
      return character.charCodeAt(0) < 128 ? `(?:${escapeRegExp(character)}|%${hex})` : escapeRegExp(character);
    })
    .join('');
}

/**
 * The routes whose URL carries a secret (`config.urlCarriesSecret`), collected as they are registered, so log
 * lines can name their pattern instead of the URL: for the route itself, for a request that missed it but
 * looks like it (another method, a trailing slash, other case, doubled slashes, escapes), and for an error
 * message that quotes such a URL.
 */
export class SecretUrls {
  readonly #routes: SecretRoute[] = [];

  add(pattern: string): void {
    if (this.#routes.some((route) => route.pattern === pattern)) return;
    const segments = pattern.split('/');
    const firstParameter = segments.findIndex((segment) => segment.includes(':') || segment.includes('*'));
    const parametric = firstParameter !== -1;
    const prefix = parametric
      ? normalisedPath(`${segments.slice(0, firstParameter).join('/')}/`)
      : normalisedPath(pattern).replace(/(.)\/$/, '$1');
    const inText = new RegExp(`${lenientPattern(prefix)}${URL_REST}${parametric ? '+' : '*'}`, 'gi');
    this.#routes.push({ pattern, prefix, parametric, inText });
    // Longest prefix first, so the most specific route names a look-alike.
    this.#routes.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** The pattern of the secret-carrying route a URL is (or looks like), or undefined. */
  lookalikeOf(url: string): string | undefined {
    if (this.#routes.length === 0) return undefined;
    const path = normalisedPath(url);
    const segments = path.replace(/(.)\/$/, '$1').split('/').length;
    let found: SecretRoute | undefined;
    for (const route of this.#routes) {
      const matches = route.parametric
        ? path.startsWith(route.prefix)
        : path === route.prefix || path === `${route.prefix}/` || path.startsWith(`${route.prefix}/`);
      if (!matches) continue;
      // Routes sharing the longest matching prefix (`/session/:id`, `/session/:id/documents`): the one with as
      // many segments as the path names it, else the first.
      if (found !== undefined && route.prefix.length < found.prefix.length) break;
      found ??= route;
      if (route.pattern.split('/').length === segments) return route.pattern;
    }
    return found?.pattern;
  }

  /** `text` with each URL (path, query and all) of a secret-carrying route in it replaced by the route's pattern. */
  redact(text: string): string {
    let redacted = text;
    for (const route of this.#routes) {
      redacted = redacted.replace(route.inText, (url) => this.lookalikeOf(url) ?? route.pattern);
    }
    return redacted;
  }
}
