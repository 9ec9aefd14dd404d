/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { describe, expect, it } from 'vitest';
import { HtmlPage } from './page.js';
import { renderHtml, renderPage } from './render.js';
import { cspHashOf, InlineScript, InlineStyle, unescapedLiteral } from './unescaped.js';

const STYLES = unescapedLiteral`body{font:16px "Segoe UI"}main>p{margin:0}`;

describe('the template layer', () => {
  it('escapes every text and attribute value it is given', () => {
    const value = `<script>alert("x")</script> & 'y'`;
    expect(renderHtml(<p title={value}>{value}</p>)).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>',
    );
  });

  it('frames a page in one main landmark, with the escaped title, its styles as written and its language', () => {
    const page = renderPage(
      <HtmlPage title="Pay <now>" styles={STYLES} lang="sw" head={<meta http-equiv="refresh" content="10" />}>
        <p>Hi</p>
      </HtmlPage>,
    );
    expect(page.startsWith('<!doctype html>\n<html lang="sw">')).toBe(true);
    expect(page).toContain('<title>Pay &lt;now&gt;</title>');
    expect(page).toContain('<style>body{font:16px "Segoe UI"}main>p{margin:0}</style><meta http-equiv="refresh"');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(page).toContain('<body><main><p>Hi</p></main></body>');
  });

  it('is in English unless told otherwise', () => {
    expect(renderPage(<HtmlPage title="t" styles={STYLES} />)).toContain('<html lang="en">');
  });
});

describe('unescapedLiteral', () => {
  it('keeps a style or script as written, with the hash a CSP allows it by', () => {
    const script = unescapedLiteral`if (a < b && c > "d") go();`;
    expect(renderHtml(<InlineScript source={script} />)).toBe('<script>if (a < b && c > "d") go();</script>');
    expect(renderHtml(<InlineStyle css={STYLES} />)).toBe(`<style>${STYLES.text}</style>`);
    expect(cspHashOf(script)).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
  });

  it('takes no value, even from a caller that casts one in', () => {
    const call = unescapedLiteral as unknown as (strings: TemplateStringsArray, ...values: unknown[]) => unknown;
    const request = '</style><script>alert(1)</script>';
    expect(() => call`body{content:"${request}"}`).toThrow('takes no values');
  });

  it('cannot close its own element', () => {
    expect(() => unescapedLiteral`p{}</STYLE><p>`).toThrow('cannot close its element');
  });
});
