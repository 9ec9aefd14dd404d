// What a key may be called, the same for members (main-api's POST /v1/api-keys) and operators (the api-keys
// command): docs/decisions.md#key-creation.

/** The longest name, in Unicode code points after trimming. */
export const API_KEY_NAME_MAX_LENGTH = 100;

/** The name of a key created without one (the database's column default says the same). */
export const DEFAULT_API_KEY_NAME = 'Default';

/** The trimmed name, or what is wrong with it. No name at all means the default name. */
export function normaliseApiKeyName(value: string | undefined): string | { problem: string } {
  if (value === undefined) return DEFAULT_API_KEY_NAME;
  const name = value.trim();
  const length = [...name].length;
  if (length < 1 || length > API_KEY_NAME_MAX_LENGTH) {
    return { problem: `must be 1-${API_KEY_NAME_MAX_LENGTH} characters after trimming spaces` };
  }
  if (/\p{Cc}/u.test(name)) return { problem: 'must not contain control characters' };
  return name;
}
