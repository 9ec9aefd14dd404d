import type { JSX } from 'hono/jsx/jsx-runtime';

// From a JSX tree to the text a route sends. Components are plain functions: none is async, so a page renders in
// one pass, and a component that returned a promise would be a mistake found at once.

/** The text of an element (an email's HTML part, a part of a page in a test). */
export function renderHtml(element: JSX.Element): string {
  if (element instanceof Promise) throw new TypeError('A template renders synchronously: no async component');
  const html = element.toString();
  if (typeof html !== 'string') throw new TypeError('A template renders synchronously: no async component');
  return html;
}

/** A whole page: the doctype, then the `<html>` element. */
export function renderPage(page: JSX.Element): string {
  return `<!doctype html>\n${renderHtml(page)}\n`;
}
