/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
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

/**
 * The text of `key` in `locale` as page content: the text, each `{name}` replaced by its value (text, or an element
 * such as `<strong>{app}</strong>`). Escaping is the renderer's, like every other value of a page. A placeholder
 * without a value stays visible rather than silently disappearing.
 */
export function say<L extends Locale>(locale: L, key: KeyIn<L>, values: Record<string, Child> = {}) {
  const parts: Child[] = [];
  let last = 0;
  for (const match of textOf(locale, key).matchAll(PLACEHOLDER)) {
    const [placeholder, name = ''] = match;
    parts.push(textOf(locale, key).slice(last, match.index));
    parts.push(Object.hasOwn(values, name) ? values[name] : placeholder);
    last = match.index + placeholder.length;
  }
  parts.push(textOf(locale, key).slice(last));
  return <>{parts}</>;
}
