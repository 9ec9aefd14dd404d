/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Child, HtmlPage, renderPage, unescapedLiteral } from '@platform/templates';

// Minimal server-rendered pages (the sandbox checkout and the page after a checkout): plain HTML forms,
// no scripts, readable without CSS.

const STYLE = unescapedLiteral`
  body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #1a1a1a; }
  main { border: 1px solid #d0d0d0; border-radius: 0.5rem; padding: 1.5rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
  dt { color: #555; } dd { margin: 0; }
  .actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: 0.6rem 1.2rem; border-radius: 0.4rem; border: 1px solid #1a1a1a; cursor: pointer; }
  button.primary { background: #0b6b3a; border-color: #0b6b3a; color: #fff; }
  button:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  .note { color: #555; font-size: 0.9rem; }
`;

/** A complete page of the checkout, English only. */
export function htmlPage(title: string, body: Child): string {
  return renderPage(
    <HtmlPage title={title} styles={STYLE}>
      {body}
    </HtmlPage>,
  );
}
