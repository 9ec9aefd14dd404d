import { describe, expect, it } from 'vitest';
import { escapeHtml, htmlDocument } from './html.js';

describe('escapeHtml', () => {
  it('escapes what could open a tag, end an attribute or start an entity', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
  });

  it('leaves other text as it is', () => {
    expect(escapeHtml('Karibu, Amina! \u202e\ud83d\udc69')).toBe('Karibu, Amina! \u202e\ud83d\udc69');
  });
});

describe('htmlDocument', () => {
  it('frames the body in one main landmark, with the escaped title, the styles and the language', () => {
    const page = htmlDocument({ title: 'Pay <now>', styles: 'p{color:red}', body: '<p>Hi</p>', lang: 'sw' });
    expect(page.startsWith('<!doctype html>\n<html lang="sw">')).toBe(true);
    expect(page).toContain('<title>Pay &lt;now&gt;</title>');
    expect(page).toContain('<style>p{color:red}</style>');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page).toMatch(/<main><p>Hi<\/p>\n<\/main>/);
  });

  it('is in English unless told otherwise', () => {
    expect(htmlDocument({ title: 't', styles: '', body: '' })).toContain('<html lang="en">');
  });
});
