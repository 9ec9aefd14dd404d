import { validationError } from '@platform/errors';

const MAX_FOLDER_NAME_LENGTH = 255;

// Unicode control characters (category Cc): C0, DEL and C1.
// Unicode Cc, which folder names refuse: finding control characters is this pattern's purpose.
// biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for exactly those characters
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The name a folder is stored under: trimmed, 1-255 characters (code points, as the database counts),
 * without "/" or control characters. Anything else is a 400 pointing at `name`.
 */
export function normaliseFolderName(raw: string): string {
  const name = raw.trim();
  const problem =
    name.length === 0
      ? 'must not be empty'
      : [...name].length > MAX_FOLDER_NAME_LENGTH
        ? `must be at most ${MAX_FOLDER_NAME_LENGTH} characters`
        : name.includes('/')
          ? 'must not contain "/"'
          : CONTROL_CHARACTERS.test(name)
            ? 'must not contain control characters'
            : undefined;
  if (problem !== undefined) throw validationError(`body/name ${problem}`, [{ path: '/name', message: problem }]);
  return name;
}
