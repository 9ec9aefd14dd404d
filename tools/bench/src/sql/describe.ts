import type { Segment, SqlTemplate, TemplateParam, TemplateStep } from './template.js';

/**
 * A template's statements, one a line, indented inside transactions (for reading what an endpoint runs), each
 * followed by where its per-request parameters come from (`$2 = param:sessionId`); constants are left out.
 */
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
        const sources = step.params.flatMap((param, position) =>
          'constant' in param ? [] : [`$${position + 1} = ${describeParam(param)}`],
        );
        if (sources.length > 0) lines.push(`${indent}  -- ${sources.join('; ')}`);
      }
    }
  };
  walk(template.steps, 0);
  return lines.join('\n');
}

function describeParam(param: Exclude<TemplateParam, { constant: unknown }>): string {
  return param.segments.map(describeSegment).join(' + ');
}

function describeSegment(segment: Segment): string {
  if ('text' in segment)
    return JSON.stringify(segment.text.length > 24 ? `${segment.text.slice(0, 24)}...` : segment.text);
  const { slot } = segment;
  switch (slot.kind) {
    case 'input':
      return slot.name;
    case 'result':
      return `answer of statement ${slot.step} (row ${slot.row}, column ${slot.column})`;
    case 'uuid':
      return `new uuid ${slot.index}`;
    case 'token':
      return `new id ${slot.index} (${slot.prefix}...)`;
    case 'now':
      return slot.offsetMs === undefined
        ? 'now'
        : `now ${slot.offsetMs >= 0 ? '+' : '-'} ${Math.abs(slot.offsetMs)} ms`;
  }
}
