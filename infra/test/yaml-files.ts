import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const infraDir = fileURLToPath(new URL('..', import.meta.url));
export const repositoryRoot = path.resolve(infraDir, '..');

export interface YamlDocument {
  /** Path relative to infra/. */
  file: string;
  value: unknown;
}

/** Every .yaml / .yml file under `directory`, recursively, sorted. */
export function yamlFilesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Every document of a YAML file, as plain values. A syntax error or a duplicate key throws, naming the file.
 * Merge keys (`<<: *anchor`) are resolved, as Compose does.
 */
export function readYamlDocuments(file: string): YamlDocument[] {
  const relative = path.relative(infraDir, file);
  return parseAllDocuments(readFileSync(file, 'utf8'), { merge: true })
    .map((document) => {
      const problem = document.errors[0];
      if (problem !== undefined) throw new Error(`${relative}: ${problem.message}`);
      return { file: relative, value: document.toJS() as unknown };
    })
    .filter((document) => document.value !== null);
}

/** The single document of a YAML file. */
export function readYamlFile(file: string): unknown {
  const documents = readYamlDocuments(file);
  if (documents.length !== 1) throw new Error(`${file}: expected one YAML document, found ${documents.length}`);
  return documents[0]?.value;
}
