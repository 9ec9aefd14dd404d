// The development form of the JSX runtime (jsx-runtime.ts), which some transforms ask for while testing.
export { Fragment, type JSX, jsxDEV } from 'hono/jsx/jsx-dev-runtime';
