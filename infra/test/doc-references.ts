// Finds every citation of a page under docs/ (and every relative link of a Markdown file) in the repository, and
// says which ones name a page or an anchor that does not exist. Anchors are what GitHub gives a page: the slug of
// each heading and any explicit `<a id="...">` / `<a name="...">`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger, { slug } from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString as textOf } from 'mdast-util-to-string';

/** One place that cites a file, optionally at an anchor. Paths are relative to the repository root, with `/`. */
export interface Reference {
  from: string;
  line: number;
  target: string;
  anchor: string | undefined;
}

/** What the checker may look at: the repository on disk, or a fixture in a test. */
export interface Files {
  isFile(target: string): boolean;
  exists(target: string): boolean;
  read(target: string): string;
}

type MarkdownNode = ReturnType<typeof fromMarkdown> | ReturnType<typeof fromMarkdown>['children'][number];

function* walk(node: MarkdownNode): Generator<MarkdownNode> {
  yield node;
  if ('children' in node) for (const child of node.children) yield* walk(child);
}

const EXPLICIT_ANCHOR = /<a\s[^>]*?\b(?:id|name)=["']([^"']+)["']/gi;

/**
 * The anchors GitHub gives a Markdown page: each heading's slug (github-slugger: lowercase, punctuation dropped,
 * spaces to hyphens, a repeated slug numbered -1, -2...) and each `<a id>` / `<a name>`. Headings inside code
 * blocks are not headings, and HTML in a heading is not part of its slug.
 */
export function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set(headingTexts(markdown).map((text) => slugger.slug(text)));
  for (const [, id] of markdown.matchAll(EXPLICIT_ANCHOR)) if (id !== undefined) anchors.add(id);
  return anchors;
}

function headingTexts(markdown: string): string[] {
  const texts: string[] = [];
  for (const node of walk(fromMarkdown(markdown))) {
    if (node.type === 'heading') texts.push(textOf(node, { includeHtml: false }));
  }
  return texts;
}

/** Each heading's slug before repeats are numbered: a slug that appears twice has an anchor that moves. */
export function headingSlugs(markdown: string): string[] {
  return headingTexts(markdown).map((text) => slug(text));
}

// `docs/<page>.md` with an optional `#anchor`, also as `../docs/...`; not `apps/x/docs/...`.
const DOCS_CITATION = /(?<![\w./-])(?:\.\.\/)*docs\/([\w-]+\.md)(?:#([\p{L}\p{N}_-]+))?/gu;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** Every `docs/<page>.md[#anchor]` in a file's text, in comments, strings or prose alike. */
export function docsCitationsIn(text: string, from: string): Reference[] {
  return [...text.matchAll(DOCS_CITATION)].map((match) => ({
    from,
    line: lineAt(text, match.index),
    target: `docs/${match[1]}`,
    anchor: match[2],
  }));
}

/**
 * Every relative link and link definition of a Markdown file (`[text](../README.md#usage)`, `[text](#y)`), resolved
 * against the file's folder. Links with a scheme (`https:`, `mailto:`) or from the site root are not files here.
 */
export function markdownLinksIn(markdown: string, from: string): Reference[] {
  const references: Reference[] = [];
  for (const node of walk(fromMarkdown(markdown))) {
    if (node.type !== 'link' && node.type !== 'definition') continue;
    if (/^([a-z][a-z\d+.-]*:|\/)/i.test(node.url)) continue;
    const hash = node.url.indexOf('#');
    const linkPath = decoded(hash === -1 ? node.url : node.url.slice(0, hash));
    const anchor = hash === -1 ? undefined : decoded(node.url.slice(hash + 1));
    const target = linkPath === '' ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), linkPath));
    references.push({ from, line: node.position?.start.line ?? 1, target, anchor });
  }
  return references;
}

// The workplace's numbered decisions list lives outside this repository; code cites docs/decisions.md instead.
const OUTSIDE_DECISIONS = /\bDECISIONS (section )?\d+/g;

/** Citations of the numbered DECISIONS document, which readers of this repository cannot open. */
export function outsideDecisionCitationsIn(text: string, from: string): string[] {
  return [...text.matchAll(OUTSIDE_DECISIONS)].map(
    (match) => `${from}:${lineAt(text, match.index)} cites "${match[0]}": cite docs/decisions.md#<anchor> instead`,
  );
}

/** What is wrong with each reference: a file that does not exist, or an anchor its Markdown does not have. */
export function brokenReferences(references: readonly Reference[], files: Files): string[] {
  const anchorsByPage = new Map<string, Set<string>>();
  const problems = new Set<string>();
  for (const { from, line, target, anchor } of references) {
    const cited = anchor === undefined ? target : `${target}#${anchor}`;
    if (!files.exists(target)) {
      problems.add(`${from}:${line} cites ${cited}, but there is no ${target}`);
      continue;
    }
    if (anchor === undefined || anchor === '' || !target.endsWith('.md') || !files.isFile(target)) continue;
    let anchors = anchorsByPage.get(target);
    if (anchors === undefined) {
      anchors = anchorsOf(files.read(target));
      anchorsByPage.set(target, anchors);
    }
    if (!anchors.has(anchor))
      problems.add(`${from}:${line} cites ${cited}, but no heading of ${target} has that anchor`);
  }
  return [...problems];
}

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.data', '.git', '.turbo', 'coverage']);
const SCANNED_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.md', '.yaml', '.yml', '.sql']);
// Shell scripts without an extension, Dockerfiles and the example env file say where the docs are too.
const SCANNED_NAMES = /(^|\.)Dockerfile$|\.env\.example$/;
const SCRIPT_FOLDERS = ['scripts/', '.ci/'];
// Generated, and too large to be worth reading.
const SKIPPED_FILES = new Set(['pnpm-lock.yaml']);

function isScanned(relative: string): boolean {
  const name = path.posix.basename(relative);
  if (SKIPPED_FILES.has(relative)) return false;
  if (SCANNED_EXTENSIONS.has(path.posix.extname(name)) || SCANNED_NAMES.test(name)) return true;
  return !name.includes('.') && SCRIPT_FOLDERS.some((folder) => relative.startsWith(folder));
}

/** The repository's source, configuration and documentation files, relative to `root`, sorted. */
export function sourceFiles(root: string): string[] {
  const found: string[] = [];
  const visit = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) visit(child);
      else if (entry.isFile() && isScanned(child)) found.push(child);
    }
  };
  visit('');
  return found.sort();
}

/** The files of the repository checkout at `root`. */
export function filesUnder(root: string): Files {
  return {
    exists: (target) => existsSync(path.join(root, target)),
    isFile: (target) => statSync(path.join(root, target), { throwIfNoEntry: false })?.isFile() ?? false,
    read: (target) => readFileSync(path.join(root, target), 'utf8'),
  };
}
