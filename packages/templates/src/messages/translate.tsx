/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { JSX } from 'hono/jsx/jsx-runtime';
import { escapeToBuffer, type HtmlEscapedString, type StringBuffer } from 'hono/utils/html';
import { en } from './en.js';
import type { BilingualKey, KeyIn, Locale, MessageKey } from './keys.js';
import { sw } from './sw.js';

// Texts of the catalogs in a page's language: `say` as page content, where a value may be markup made with JSX (a
// name in <strong>) and every text is escaped when the page renders; `text` as plain text, for a title, an
// attribute, a PDF or an email's text part.

const catalogs: { readonly [L in Locale]: Readonly<Record<KeyIn<L>, string>> } = { en, sw };

/** The catalog of `locale`, for its tests and for listing keys. */
export function catalogOf<L extends Locale>(locale: L): Readonly<Record<KeyIn<L>, string>> {
  return catalogs[locale];
}

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

/** Whether both catalogs have `key`: a text a page in either language may ask for. */
export function isBilingualKey(key: string): key is BilingualKey {
  return Object.hasOwn(sw, key);
}

/** Each language named in itself, for a language switch. */
export const languageNames: Readonly<Record<Locale, string>> = { en: 'English', sw: 'Kiswahili' };

const PLACEHOLDER = /\{(\w+)\}/g;

function textOf<L extends Locale>(locale: L, key: KeyIn<L>): string {
  return (catalogs[locale] as Readonly<Record<string, string>>)[key] as string;
}

/** The text of `key` in `locale` with its placeholders filled, as plain text. A placeholder without a value stays. */
export function text<L extends Locale>(locale: L, key: KeyIn<L>, values: Record<string, string | number> = {}): string {
  return textOf(locale, key).replace(PLACEHOLDER, (placeholder, name: string) => {
    const value = values[name];
    return value === undefined ? placeholder : String(value);
  });
}

/** A message as page content: its text between placeholders, escaped once by the renderer, and the placeholders. */
interface PageText {
  /** One more than `names`: the text before each placeholder, then the text after the last. */
  pieces: readonly HtmlEscapedString[];
  names: readonly string[];
  placeholders: readonly string[];
}

const pageTexts: { readonly [L in Locale]: Map<string, PageText> } = { en: new Map(), sw: new Map() };

/** The text escaped as the renderer escapes any string (its own function), marked escaped so a page adds it as it is. */
function escapedOnce(piece: string): HtmlEscapedString {
  const buffer: StringBuffer = [''];
  escapeToBuffer(piece, buffer);
  return raw(buffer[0] as string);
}

function pageTextOf<L extends Locale>(locale: L, key: KeyIn<L>): PageText {
  let compiled = pageTexts[locale].get(key);
  if (compiled === undefined) {
    const message = textOf(locale, key);
    const pieces: HtmlEscapedString[] = [];
    const names: string[] = [];
    const placeholders: string[] = [];
    let last = 0;
    for (const match of message.matchAll(PLACEHOLDER)) {
      const [placeholder, name = ''] = match;
      pieces.push(escapedOnce(message.slice(last, match.index)));
      names.push(name);
      placeholders.push(placeholder);
      last = match.index + placeholder.length;
    }
    pieces.push(escapedOnce(message.slice(last)));
    compiled = { pieces, names, placeholders };
    pageTexts[locale].set(key, compiled);
  }
  return compiled;
}

/**
 * The text of `key` in `locale` as page content: the text, each `{name}` replaced by its value (text, or an element
 * such as `<strong>{app}</strong>`). Escaping is the renderer's, like every other value of a page: the catalog's
 * text is escaped once per message (a list page says the same texts in every row), the values on every render. A
 * placeholder without a value stays visible rather than silently disappearing.
 */
export function say<L extends Locale>(locale: L, key: KeyIn<L>, values: Record<string, Child> = {}): JSX.Element {
  const { pieces, names, placeholders } = pageTextOf(locale, key);
  if (names.length === 0) return pieces[0] as HtmlEscapedString;
  const parts: Child[] = [pieces[0]];
  // Values that are all text or numbers (an amount in every row of a list) are escaped here by the renderer's own escaping,
  // so the page adds one escaped text instead of a fragment to render; any other value goes to the renderer.
  let allText = true;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const value = Object.hasOwn(values, name) ? values[name] : placeholders[i];
    if (typeof value !== 'string' && typeof value !== 'number') allText = false;
    parts.push(value, pieces[i + 1]);
  }
  if (allText) {
    const buffer: StringBuffer = [''];
    for (let i = 0; i < parts.length; i++) {
      if (i % 2 === 0) buffer[0] += parts[i] as HtmlEscapedString;
      else escapeToBuffer(String(parts[i]), buffer);
    }
    return raw(buffer[0]);
  }
  return <>{parts}</>;
}
