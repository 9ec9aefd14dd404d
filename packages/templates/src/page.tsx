/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import { InlineStyle, type UnescapedLiteral } from './unescaped.js';

interface HtmlPageProps {
  title: string;
  /** The page's own style sheet; a page loads nothing else. */
  styles: UnescapedLiteral;
  /** The page's language (`lang`), English unless the page says otherwise. */
  lang?: string | undefined;
  /** Elements for the end of `<head>` (a `<meta http-equiv="refresh">`), nothing by default. */
  head?: Child;
  /** What comes before `<main>` (a skip link, a site header with its navigation), nothing by default. */
  before?: Child;
  /** The id of `<main>`, for a skip link to point at. */
  mainId?: string;
  children?: Child;
}

/**
 * The frame of every page both services serve (the hosted verification page, the review console, the checkout
 * pages, receipts and invoices): scaled for small phones, kept out of search engines, one `<main>` landmark for
 * screen readers. Render it with `renderPage`.
 */
export function HtmlPage({ title, styles, lang = 'en', head, before, mainId, children }: HtmlPageProps) {
  return (
    <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <InlineStyle css={styles} />
        {head}
      </head>
      <body>
        {before}
        <main id={mainId}>{children}</main>
      </body>
    </html>
  );
}
