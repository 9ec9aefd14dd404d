import { sessionLocales } from '@platform/db';
import { describe, expect, it } from 'vitest';
import { catalog, pageLanguageOf, say, sayText } from './strings.js';

const placeholdersOf = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the hosted page string catalog', () => {
  const keys = Object.keys(catalog.en).sort();

  it.each(sessionLocales)('has every key in %s, none empty or padded', (locale) => {
    expect(Object.keys(catalog[locale]).sort()).toEqual(keys);
    for (const key of keys) {
      const text = catalog[locale][key as keyof typeof catalog.en];
      expect(text.trim(), `${locale} ${key}`).not.toBe('');
      expect(text, `${locale} ${key}`).toBe(text.trim());
    }
  });

  it('names the same placeholders in every language', () => {
    for (const key of keys) {
      const expected = placeholdersOf(catalog.en[key as keyof typeof catalog.en]);
      for (const locale of sessionLocales) {
        expect(placeholdersOf(catalog[locale][key as keyof typeof catalog.en]), `${locale} ${key}`).toEqual(expected);
      }
    }
  });

  it('is really translated: no Kiswahili text is the English one, except names and product terms', () => {
    const same = keys.filter(
      (key) => catalog.sw[key as keyof typeof catalog.en] === catalog.en[key as keyof typeof catalog.en],
    );
    expect(same).toEqual([]);
  });

  it('fills placeholders escaped, takes markup only when told, and leaves a missing one visible', () => {
    expect(say('en', 'requestedBy', { app: '<b>Acme</b>' })).toBe('Requested by &lt;b&gt;Acme&lt;/b&gt;');
    expect(say('sw', 'requestedBy', { app: { html: '<strong>Acme</strong>' } })).toBe(
      'Imeombwa na <strong>Acme</strong>',
    );
    expect(say('en', 'consent.agreeExplained')).toBe(
      'If you choose &quot;I agree&quot;, your data will be used as described above.',
    );
    expect(say('en', 'next.verified')).toBe('All done. You can return to {app}.');
    expect(sayText('en', 'documentTitle.kyc', { status: 'Verified' })).toBe('Verified: verify your identity');
  });

  it.each([
    ['en', 'en'],
    ['sw', 'sw'],
    ['fr', undefined],
    ['SW', undefined],
    ['', undefined],
    [undefined, undefined],
    [['sw'], undefined],
  ])('reads ?lang=%j as %j', (lang, expected) => {
    expect(pageLanguageOf(lang)).toBe(expected);
  });
});
