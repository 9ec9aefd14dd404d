// The JSX runtime of every page, document and email body (docs/decisions.md#html-templates): hono's, which escapes
// every text and attribute value it is given. `jsxImportSource` (tsconfig.base.json) points here, so the apps depend
// on this package alone for it.
export { Fragment, type JSX, jsx, jsxs } from 'hono/jsx/jsx-runtime';
