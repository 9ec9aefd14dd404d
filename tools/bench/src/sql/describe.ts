import type { SqlTemplate, TemplateStep } from './template.js';

/** A template's statements, one a line, indented inside transactions (for reading what an endpoint runs). */
export function describeTemplate(template: SqlTemplate): string {
  const lines: string[] = [];
  const walk = (steps: readonly TemplateStep[], depth: number) => {
    const indent = '  '.repeat(depth);
    for (const step of steps) {
      if (step.kind === 'transaction') {
        lines.push(`${indent}${step.savepoint ? 'savepoint' : 'begin'}`);
        walk(step.steps, depth + 1);
        lines.push(`${indent}${step.savepoint ? 'release savepoint' : 'commit'}`);
      } else {
        lines.push(`${indent}${step.query.replace(/\s+/g, ' ').trim()}`);
      }
    }
  };
  walk(template.steps, 0);
  return lines.join('\n');
}
