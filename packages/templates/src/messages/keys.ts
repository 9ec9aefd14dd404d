import type { en } from './en.js';
import type { sw } from './sw.js';

/** Every text's key: the English catalog has them all. */
export type MessageKey = keyof typeof en;

/** The keys the Kiswahili catalog has: the only ones a page shown in Kiswahili may ask for. */
export type BilingualKey = keyof typeof sw;

/** The languages of the catalogs, each page offering one or both. */
export const locales = ['en', 'sw'] as const;
export type Locale = (typeof locales)[number];

/**
 * The keys a page in `L` may use: any key in English alone, the keys of both catalogs in Kiswahili or in a language
 * chosen at run time. (Brackets keep a union of languages from spreading to a union of keys.)
 */
export type KeyIn<L extends Locale> = [L] extends ['en'] ? MessageKey : BilingualKey;
