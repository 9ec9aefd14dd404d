import escapeHtmlText from 'escape-html';

/** Text made safe to put into HTML, in content and in quoted attributes: the pages both services serve use it. */
export function escapeHtml(text: string): string {
  return escapeHtmlText(text);
}

/** What a page of ours consists of: `body` is trusted HTML (escape every value put into it), `styles` its CSS. */
interface HtmlDocument {
  title: string;
  styles: string;
  body: string;
  /** The page's language (`lang`), English unless the page says otherwise. */
  lang?: string;
  /** Trusted markup for the end of `<head>` (a `<meta http-equiv="refresh">`), nothing by default. */
  head?: string;
}

/**
 * The frame of every server-rendered page both services serve (the hosted verification page, the sandbox
 * checkout, the page after a checkout): scaled for small phones, kept out of search engines, one `<main>`
 * landmark for screen readers.
 */
export function htmlDocument({ title, styles, body, lang = 'en', head = '' }: HtmlDocument): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>${head}
</head>
<body>
<main>${body}
</main>
</body>
</html>
`;
}
