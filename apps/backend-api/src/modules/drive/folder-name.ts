import { invalidFields } from '@platform/errors';

const MAX_FOLDER_NAME_LENGTH = 255;

/**
 * The name a folder is stored under: trimmed, 1-255 characters (code points, as the database counts), without "/".
 * Anything else is a 400 pointing at `name`. Control characters, line separators and bidirectional controls were
 * refused by the schema already, as in every single-line name (docs/decisions.md#single-line-names).
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
          : undefined;
  if (problem !== undefined) throw invalidFields([{ path: '/name', message: problem }]);
  return name;
}
