import { documentKinds, idTypes, sessionLocales, verificationStatuses } from '@platform/db';
import { describe, expect, it } from 'vitest';
import { locales } from './keys.js';
import { catalogOf, isBilingualKey, isMessageKey } from './translate.js';

const placeholdersOf = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
const english: Readonly<Record<string, string>> = catalogOf('en');
const kiswahili: Readonly<Record<string, string>> = catalogOf('sw');

describe('the message catalogs', () => {
  it('are in the languages of the sessions', () => {
    expect([...locales]).toEqual([...sessionLocales]);
  });

  it.each(locales)('have no empty or padded text in %s', (locale) => {
    for (const [key, text] of Object.entries(catalogOf(locale) as Record<string, string>)) {
      expect(text.trim(), `${locale} ${key}`).not.toBe('');
      expect(text, `${locale} ${key}`).toBe(text.trim());
    }
  });

  it('have in Kiswahili only keys English has, with the same placeholders', () => {
    for (const [key, text] of Object.entries(kiswahili)) {
      expect(isMessageKey(key), key).toBe(true);
      expect(placeholdersOf(text), key).toEqual(placeholdersOf(english[key] ?? ''));
    }
  });

  it('have every text of the hosted verification page in both languages', () => {
    const hostedPage = Object.keys(english).filter((key) => key.startsWith('verify.'));
    expect(hostedPage.length).toBeGreaterThan(100);
    expect(hostedPage.filter((key) => !isBilingualKey(key))).toEqual([]);
  });

  it('are really translated: no Kiswahili text is the English one', () => {
    expect(Object.keys(kiswahili).filter((key) => kiswahili[key] === english[key])).toEqual([]);
  });

  it('label every document kind, ID type and verification status once, in both languages', () => {
    const labels = [
      ...documentKinds.map((kind) => `documentKind.${kind}`),
      ...idTypes.map((idType) => `idType.${idType}`),
      ...verificationStatuses.map((status) => `verificationStatus.${status}`),
    ];
    expect(labels.filter((key) => !isBilingualKey(key))).toEqual([]);
    const labelled = Object.keys(english).filter((key) => /^(documentKind|idType|verificationStatus)\./.test(key));
    expect(labelled.sort()).toEqual([...labels].sort());
  });
});
