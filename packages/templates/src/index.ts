// The template layer of both services (docs/decisions.md#html-templates): pages, documents and email bodies are
// JSX rendered to a string, every value escaped; the message catalogs in English and Kiswahili.
export type { Child } from 'hono/jsx';
export type { JSX } from 'hono/jsx/jsx-runtime';
export { type BilingualKey, type KeyIn, type Locale, locales, type MessageKey } from './messages/keys.js';
export { catalogOf, isBilingualKey, isMessageKey, languageNames, say, text } from './messages/translate.js';
export { HtmlPage } from './page.js';
export { renderHtml, renderPage } from './render.js';
export { cspHashOf, InlineScript, InlineStyle, type UnescapedLiteral, unescapedLiteral } from './unescaped.js';
