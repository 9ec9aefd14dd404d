// Reads the small part of Mermaid's flowchart syntax the workspace diagrams of docs/architecture.md use: nodes
// (`id`, `id["label"]`, `id[label]` and the other bracket shapes), arrows (`-->` solid, `-.->` dotted, with an
// optional `|text|`), chains (`a --> b --> c`) and `&` lists (`a & b --> c`), subgraphs, comments and styling lines.
// Anything else that sits between two nodes is reported, so an arrow the checker cannot read is never skipped.

export type ArrowStyle = 'solid' | 'dotted';

/** One arrow between two node ids, at its line of the Markdown page. */
interface FlowchartArrow {
  from: string;
  to: string;
  style: ArrowStyle;
  line: number;
}

export interface Flowchart {
  /** Each node id and its label (the id itself when it has none). */
  labels: Map<string, string>;
  /** The line each node id first appears on. */
  lines: Map<string, number>;
  subgraphs: Set<string>;
  arrows: FlowchartArrow[];
  /** Statements the checker cannot read, with their line. */
  problems: string[];
}

// Lines that draw nothing: the header, the end of a subgraph, comments, styling and interaction.
const IGNORED = /^(?:flowchart|graph|end$|direction\s|%%|classDef\s|class\s|style\s|linkStyle\s|click\s)/;
const SUBGRAPH = /^subgraph\s+([A-Za-z_][\w-]*)/;
const OPENING = '[({';
const CLOSING = '])}';
// `a`, `a["label"]`, `a([label])`, `a{label}`..., with an optional `:::class`.
const NODE = /^([A-Za-z_][\w-]*)\s*(?:[[({]+([\s\S]*?)[\])}]+)?(?::::[\w-]+)?$/;

type Token = { arrow: ArrowStyle } | { node: string };

/** Splits a statement on its arrows and `&`, outside quotes and brackets: the node texts and the arrows between. */
function tokens(statement: string): Token[] | undefined {
  const result: Token[] = [];
  let text = '';
  let depth = 0;
  let quoted = false;
  const flush = () => {
    result.push({ node: text.trim() });
    text = '';
  };
  for (let i = 0; i < statement.length; i += 1) {
    const char = statement.charAt(i);
    if (char === '"') quoted = !quoted;
    if (!quoted && OPENING.includes(char)) depth += 1;
    if (!quoted && CLOSING.includes(char)) depth -= 1;
    const rest = statement.slice(i);
    const arrow = quoted || depth > 0 ? undefined : /^(-->|-\.->)\s*(\|[^|]*\|)?/.exec(rest);
    if (arrow !== undefined && arrow !== null) {
      flush();
      result.push({ arrow: arrow[1] === '-->' ? 'solid' : 'dotted' });
      i += arrow[0].length - 1;
    } else if (!quoted && depth === 0 && char === '&') {
      flush();
    } else {
      text += char;
    }
  }
  flush();
  return depth === 0 && !quoted ? result : undefined;
}

function labelOf(shape: string | undefined): string | undefined {
  if (shape === undefined) return undefined;
  const unquoted = shape.trim().replace(/^"([\s\S]*)"$/, '$1');
  return unquoted.split(/<br\s*\/?>/i)[0]?.trim();
}

/** The nodes, subgraphs and arrows of one flowchart whose first line is `firstLine` of its page. */
export function parseFlowchart(source: string, firstLine: number): Flowchart {
  const chart: Flowchart = { labels: new Map(), lines: new Map(), subgraphs: new Set(), arrows: [], problems: [] };
  source.split('\n').forEach((raw, index) => {
    const line = firstLine + index;
    const statement = raw.trim().replace(/;$/, '');
    if (statement === '' || IGNORED.test(statement)) return;
    const subgraph = SUBGRAPH.exec(statement);
    if (subgraph?.[1] !== undefined) {
      chart.subgraphs.add(subgraph[1]);
      return;
    }
    readStatement(chart, statement, line);
  });
  return chart;
}

function readStatement(chart: Flowchart, statement: string, line: number): void {
  const parts = tokens(statement);
  const unreadable = `line ${line}: cannot read \`${statement}\`: write a node as id["@platform/name"] and an arrow as \`a --> b\` (dependencies) or \`a -.-> b\` (devDependencies)`;
  if (parts === undefined) {
    chart.problems.push(unreadable);
    return;
  }
  // Groups of node ids (`a & b`), and the style of the arrow before each group after the first.
  const groups: string[][] = [[]];
  const styles: ArrowStyle[] = [];
  for (const part of parts) {
    if ('arrow' in part) {
      styles.push(part.arrow);
      groups.push([]);
      continue;
    }
    const node = NODE.exec(part.node);
    if (node?.[1] === undefined) {
      chart.problems.push(unreadable);
      return;
    }
    const [, id] = node;
    const label = labelOf(node[2]);
    if (label !== undefined) chart.labels.set(id, label);
    else if (!chart.labels.has(id)) chart.labels.set(id, id);
    if (!chart.lines.has(id)) chart.lines.set(id, line);
    groups.at(-1)?.push(id);
  }
  styles.forEach((style, index) => {
    for (const from of groups[index] ?? []) {
      for (const to of groups[index + 1] ?? []) chart.arrows.push({ from, to, style, line });
    }
  });
}
