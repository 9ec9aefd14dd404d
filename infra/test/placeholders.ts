// The example configurations mark every secret with a placeholder, which the services refuse at start (@platform/http's
// CONFIG_PLACEHOLDER, docs/operations.md#configuration-placeholders). A test that boots a service from them fills each
// one in, as an operator does.

const PLACEHOLDER = 'REPLACE_ME';

/** Letters and digits: valid wherever a placeholder stands (passwords inside URLs, tokens, key ids). */
const FILLED = 'Filled0secret';

/** `environment` with each placeholder replaced by a value of the same shape. */
export function withPlaceholdersFilled(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(environment).map(([name, value]) => [name, value?.replaceAll(PLACEHOLDER, FILLED)]),
  );
}

/** The variables of `environment` that still hold a placeholder. */
export function placeholderNames(environment: NodeJS.ProcessEnv): string[] {
  return Object.entries(environment)
    .filter(([, value]) => value?.includes(PLACEHOLDER) === true)
    .map(([name]) => name);
}
