// Compose's env file and ${VARIABLE} interpolation, as far as infra/compose.yaml uses them.

/** `KEY=value` lines; blank lines and `#` comments are skipped. Values are taken literally (no quotes used). */
export function parseEnvFile(text: string): Map<string, string> {
  const variables = new Map<string, string>();
  for (const [index, rawLine] of text.split('\n').entries()) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match === null) throw new Error(`env file line ${index + 1} is not KEY=value: ${rawLine}`);
    const [, name, value] = match;
    if (name === undefined || value === undefined) continue;
    if (variables.has(name)) throw new Error(`env file sets ${name} twice`);
    variables.set(name, value);
  }
  return variables;
}

// ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?message}, ${NAME?message}; $$ is a literal $.
const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g;

/** The variable names a Compose string refers to. */
export function referencedVariables(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(REFERENCE)) {
    if (match[1] !== undefined) names.add(match[1]);
  }
  return names;
}

/** Substitutes variables the way Compose does; a `?` reference to an unset variable throws its message. */
export function interpolate(text: string, variables: ReadonlyMap<string, string>): string {
  if (/\$(?![${])/.test(text.replaceAll('$$', ''))) throw new Error(`unbraced $ reference in ${JSON.stringify(text)}`);
  type Groups = [name?: string, colon?: string, operator?: string, operand?: string];
  return text.replace(REFERENCE, (_match, ...[name, colon, operator, operand]: Groups) => {
    if (name === undefined) return '$';
    const value = variables.get(name);
    // With a colon, an empty value counts as unset too.
    const unset = value === undefined || (colon === ':' && value === '');
    if (operator === '-') return unset ? (operand ?? '') : (value ?? '');
    if (operator === '?') {
      if (unset) throw new Error(`${name}: ${operand || 'required'}`);
      return value ?? '';
    }
    return value ?? '';
  });
}
