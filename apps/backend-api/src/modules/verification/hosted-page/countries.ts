import type { Locale } from '@platform/templates';
import countries from 'i18n-iso-countries';
import enCountries from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import swCountries from 'i18n-iso-countries/langs/sw.json' with { type: 'json' };

// The nationality choices of the capture form (docs/decisions.md#hosted-capture): every ISO 3166 country by its name
// in the page's language, valued by its alpha-3 code (what submissions take), Kenya first because most people
// verifying here are Kenyan, then the rest in the language's alphabetical order.

countries.registerLocale(enCountries);
countries.registerLocale(swCountries);

/** The country the form preselects and lists first. */
export const FIRST_COUNTRY = 'KEN';

export interface CountryChoice {
  code: string;
  name: string;
}

const choicesByLocale = new Map<Locale, readonly CountryChoice[]>();

/** The countries in `locale`, Kenya first (computed once per language). */
export function countryChoices(locale: Locale): readonly CountryChoice[] {
  const known = choicesByLocale.get(locale);
  if (known !== undefined) return known;
  const collator = new Intl.Collator(locale);
  const all = Object.entries(countries.getNames(locale, { select: 'official' })).flatMap(([alpha2, name]) => {
    const code = countries.alpha2ToAlpha3(alpha2);
    return code === undefined ? [] : [{ code, name }];
  });
  const first = all.filter(({ code }) => code === FIRST_COUNTRY);
  const rest = all.filter(({ code }) => code !== FIRST_COUNTRY).sort((a, b) => collator.compare(a.name, b.name));
  const choices = [...first, ...rest];
  choicesByLocale.set(locale, choices);
  return choices;
}

/** The name of the country `code` (alpha-3) in `locale`, or the code itself when it names none. */
export function countryName(locale: Locale, code: string): string {
  return countries.getName(code, locale, { select: 'official' }) ?? code;
}
