/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../render.js';
import { say, text } from './translate.js';

const html = (element: ReturnType<typeof say>) => renderHtml(element);

describe('say', () => {
  it('escapes the text and every value, and takes markup only as an element', () => {
    expect(html(say('en', 'verify.requestedBy', { app: '<b>Acme</b>' }))).toBe('Requested by &lt;b&gt;Acme&lt;/b&gt;');
    expect(html(say('sw', 'verify.requestedBy', { app: <strong>{'<Acme>'}</strong> }))).toBe(
      'Imeombwa na <strong>&lt;Acme&gt;</strong>',
    );
    expect(html(say('en', 'verify.consent.agreeExplained'))).toBe(
      'If you choose &quot;I agree&quot;, your data will be used as described above.',
    );
  });

  it('escapes a text said twice the same way, and text values with it', () => {
    for (let i = 0; i < 2; i++) {
      expect(html(say('en', 'verify.consent.agreeExplained'))).toBe(
        'If you choose &quot;I agree&quot;, your data will be used as described above.',
      );
      expect(html(say('en', 'verify.requestedBy', { app: `"Duka" & <Sons> 'Ltd'` }))).toBe(
        'Requested by &quot;Duka&quot; &amp; &lt;Sons&gt; &#39;Ltd&#39;',
      );
    }
  });

  it('fills every placeholder, numbers too, and leaves a missing one visible', () => {
    expect(html(say('en', 'verify.consent.keep', { days: 30 }))).toContain('deleted 30 days after');
    expect(html(say('en', 'verify.next.verified'))).toBe('All done. You can return to {app}.');
    expect(html(say('en', 'console.review.claimedByOther', { reviewer: 'a&b', time: <time>now</time> }))).toBe(
      'Claimed by a&amp;b until <time>now</time>.',
    );
  });
});

describe('text', () => {
  it('fills placeholders as plain text, unescaped, for titles, PDFs and email text parts', () => {
    expect(text('en', 'verify.documentTitle.kyc', { status: 'Verified' })).toBe('Verified: verify your identity');
    expect(text('en', 'billingDocument.kraPin', { pin: '<none>' })).toBe('KRA PIN: <none>');
    expect(text('sw', 'verify.linkValidUntil')).toBe('Kiungo hiki kinafanya kazi hadi {time}.');
  });
});
