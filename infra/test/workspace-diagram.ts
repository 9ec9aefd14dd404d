// The workspace diagrams of docs/architecture.md against the workspaces' package.json files: every arrow drawn is a
// dependency a manifest declares, every workspace dependency is drawn, and every workspace has a node and a line of
// text. A solid arrow (-->) is a `dependencies` entry, a dotted one (-.->) a `devDependencies` entry.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString as textOf } from 'mdast-util-to-string';
import { parse } from 'yaml';
import { type ArrowStyle, parseFlowchart } from './mermaid-flowchart.js';

type DependencyKind = 'dependencies' | 'devDependencies';

const KIND_OF: Record<ArrowStyle, DependencyKind> = { solid: 'dependencies', dotted: 'devDependencies' };
const ARROW_OF: Record<DependencyKind, string> = { dependencies: '-->', devDependencies: '-.->' };

/** What the comparison needs of one workspace's package.json. */
export interface Manifest {
  name: string;
  /** The workspace's folder, relative to the repository root (`packages/ledger`). */
  folder: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** One Mermaid block of the page, and the page line its first statement is on. */
interface MermaidBlock {
  source: string;
  line: number;
}

/** What a section of the page holds: its Mermaid blocks, and the rest of its text (the lines about each package). */
export interface DiagramSection {
  blocks: MermaidBlock[];
  prose: string;
}

/** The Mermaid blocks and the prose of the `##` section titled `heading` (undefined when the page has none). */
export function sectionOf(markdown: string, heading: string): DiagramSection | undefined {
  const children = fromMarkdown(markdown).children;
  const start = children.findIndex((node) => node.type === 'heading' && node.depth === 2 && textOf(node) === heading);
  if (start === -1) return undefined;
  const section: DiagramSection = { blocks: [], prose: '' };
  for (const node of children.slice(start + 1)) {
    if (node.type === 'heading' && node.depth <= 2) break;
    if (node.type === 'code' && node.lang === 'mermaid') {
      section.blocks.push({ source: node.value, line: (node.position?.start.line ?? 0) + 1 });
    } else {
      section.prose += `${textOf(node)}\n`;
    }
  }
  return section;
}

/** Each workspace the root's pnpm-workspace.yaml lists (`folder/*` and plain folders), with its package.json. */
export function readManifests(root: string): Manifest[] {
  const { packages } = parse(readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8')) as { packages: string[] };
  const folders = packages.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    if (/[*?{[!]/.test(parent)) throw new Error(`pnpm-workspace.yaml: cannot read the pattern ${pattern}`);
    return readdirSync(path.join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`);
  });
  return folders
    .filter((folder) => existsSync(path.join(root, folder, 'package.json')))
    .sort()
    .map((folder) => {
      const manifest = JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8')) as Omit<
        Manifest,
        'folder'
      >;
      return { ...manifest, folder };
    });
}

interface DrawnArrow {
  from: string;
  to: string;
  kind: DependencyKind;
  line: number;
}

/** The arrows drawn, by package name; and the node id each package is drawn with, for the lines to add. */
function readDiagrams(page: string, section: DiagramSection, names: Set<string>) {
  const arrows: DrawnArrow[] = [];
  const ids = new Map<string, string>();
  const problems: string[] = [];
  for (const block of section.blocks) {
    const chart = parseFlowchart(block.source, block.line);
    problems.push(...chart.problems.map((problem) => `${page} ${problem}`));
    const packageOf = (id: string): string | undefined => {
      const label = chart.labels.get(id) ?? id;
      return names.has(label) ? label : undefined;
    };
    for (const [id, label] of chart.labels) {
      if (packageOf(id) !== undefined) {
        if (!ids.has(label)) ids.set(label, id);
      } else if (chart.subgraphs.has(id)) {
        problems.push(
          `${page}:${chart.lines.get(id)} draws an arrow from or to the subgraph \`${id}\`: draw one arrow per dependency, between packages' nodes`,
        );
      } else {
        problems.push(
          `${page}:${chart.lines.get(id)}: node \`${id}\` is labelled "${label}", which is no workspace: begin each label with a package's name as its package.json spells it (\`${id}["@platform/..."]\`), or remove the node`,
        );
      }
    }
    for (const arrow of chart.arrows) {
      const from = packageOf(arrow.from);
      const to = packageOf(arrow.to);
      if (from !== undefined && to !== undefined)
        arrows.push({ from, to, kind: KIND_OF[arrow.style], line: arrow.line });
    }
  }
  return { arrows, ids, problems };
}

/** The node id a package would be drawn with: its name without the scope, in camel case (`verifyWeb`). */
function suggestedId(name: string): string {
  return (name.split('/').at(-1) ?? name).replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
}

/** Whether `text` names the package, not merely a longer name it begins (`@platform/db` in `@platform/db-tools`). */
function namedIn(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    if (!/[\w-]/.test(text.charAt(at + name.length))) return true;
  }
  return false;
}

/** The workspace dependencies of the manifests: a package in both lists counts as a `dependencies` entry. */
function declaredArrows(manifests: readonly Manifest[]): Map<string, DependencyKind> {
  const names = new Set(manifests.map((manifest) => manifest.name));
  const declared = new Map<string, DependencyKind>();
  for (const manifest of manifests) {
    for (const kind of ['devDependencies', 'dependencies'] as const) {
      for (const dependency of Object.keys(manifest[kind] ?? {})) {
        if (names.has(dependency)) declared.set(`${manifest.name} ${dependency}`, kind);
      }
    }
  }
  return declared;
}

/**
 * Where the page's workspace diagrams and the manifests disagree, each problem saying what to change: an arrow
 * drawn that no manifest declares (or drawn solid for a devDependency, dotted for a dependency), a workspace
 * dependency not drawn, a workspace with no node or no mention in the section's text, a node that is no workspace.
 */
export function diagramProblems(page: string, section: DiagramSection, manifests: readonly Manifest[]): string[] {
  const byName = new Map(manifests.map((manifest) => [manifest.name, manifest]));
  const { arrows, ids, problems } = readDiagrams(page, section, new Set(byName.keys()));
  const declared = declaredArrows(manifests);
  const drawn = new Set<string>();
  for (const { from, to, kind, line } of arrows) {
    const pair = `${from} ${to}`;
    drawn.add(pair);
    const actual = declared.get(pair);
    const manifest = `${byName.get(from)?.folder}/package.json`;
    if (actual === kind) continue;
    if (actual === undefined) {
      problems.push(
        `${page}:${line} draws ${from} ${ARROW_OF[kind]} ${to}, but ${manifest} does not list ${to}: remove the arrow (or, if ${from} does use ${to}, add it to the ${kind} of ${manifest})`,
      );
    } else {
      problems.push(
        `${page}:${line} draws ${from} ${ARROW_OF[kind]} ${to}, but ${manifest} lists ${to} in its ${actual}: draw it as \`${ids.get(from)} ${ARROW_OF[actual]} ${ids.get(to)}\``,
      );
    }
  }
  for (const [pair, kind] of declared) {
    if (drawn.has(pair)) continue;
    const [from = '', to = ''] = pair.split(' ');
    problems.push(
      `${byName.get(from)?.folder}/package.json lists ${to} in its ${kind}, and ${page} does not draw it: add \`${ids.get(from) ?? suggestedId(from)} ${ARROW_OF[kind]} ${ids.get(to) ?? suggestedId(to)}\` to one of its workspace diagrams`,
    );
  }
  for (const { name, folder } of manifests) {
    if (!ids.has(name)) {
      problems.push(
        `${name} (${folder}) has no node in ${page}'s workspace diagrams: add one, \`${suggestedId(name)}["${name}"]\`, with its arrows`,
      );
    }
    if (!namedIn(section.prose, name)) {
      problems.push(
        `${name} (${folder}) is not named in the text of ${page}'s workspace section: add a line on what it holds`,
      );
    }
  }
  return problems;
}
