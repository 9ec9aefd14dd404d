/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { createHash } from 'node:crypto';
import { raw } from 'hono/html';

// The one way text reaches a page unescaped (docs/decisions.md#html-templates): a style sheet or a script written
// as a literal in the source, never a value. `corepack pnpm lint` refuses `raw` and `dangerouslySetInnerHTML`
// anywhere else (biome-plugins/no-hand-written-html.grit).

declare const written: unique symbol;

/** CSS or JavaScript written in the source: `unescapedLiteral` made it, so no request or database value is in it. */
export interface UnescapedLiteral {
  readonly text: string;
  readonly [written]: true;
}

const CLOSING_TAG = /<\/(style|script)/i;

/**
 * A tagged template that takes no interpolation: `unescapedLiteral\`body{margin:0}\``. TypeScript refuses a
 * `${value}` in it (the values are `never`), and so does the function, for a caller that casts. A literal that
 * would close its own element is refused too.
 */
export function unescapedLiteral(strings: TemplateStringsArray, ...values: never[]): UnescapedLiteral {
  if (values.length > 0 || strings.length !== 1) throw new TypeError('An unescaped literal takes no values');
  const text = strings[0] ?? '';
  if (CLOSING_TAG.test(text)) throw new TypeError('An unescaped literal cannot close its element');
  return { text } as UnescapedLiteral;
}

/** The CSP source that allows exactly this inline style or script: `'sha256-...'`. */
export function cspHashOf(literal: UnescapedLiteral): string {
  return `'sha256-${createHash('sha256').update(literal.text).digest('base64')}'`;
}

/** A page's own style sheet. */
export function InlineStyle({ css }: { css: UnescapedLiteral }) {
  return <style>{raw(css.text)}</style>;
}

/** A page's own script (a CSP allows it by its hash: cspHashOf). */
export function InlineScript({ source, type }: { source: UnescapedLiteral; type?: 'module' }) {
  return <script type={type}>{raw(source.text)}</script>;
}
