// docs/architecture.md draws the workspaces and their dependencies; this keeps the drawing equal to the
// package.json files, so a dependency added or removed fails here until the diagram follows (and the checker is
// shown failing on made-up diagrams and manifests, so a checker that stops reading arrows fails too).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFlowchart } from './mermaid-flowchart.js';
import { type DiagramSection, diagramProblems, type Manifest, readManifests, sectionOf } from './workspace-diagram.js';
import { repositoryRoot } from './yaml-files.js';

const PAGE = 'docs/architecture.md';
const HEADING = 'Workspaces and the arrows between them';

describe(`${PAGE}'s workspace diagrams`, () => {
  it('draw every workspace dependency of the package.json files, and no other', () => {
    const section = sectionOf(readFileSync(path.join(repositoryRoot, PAGE), 'utf8'), HEADING);
    expect(section, `${PAGE} has no "## ${HEADING}" section`).toBeDefined();
    if (section === undefined) return;
    expect(diagramProblems(PAGE, section, readManifests(repositoryRoot))).toEqual([]);
  });

  it('read every workspace pnpm-workspace.yaml lists, apps, packages, tools and infra alike', () => {
    const folders = readManifests(repositoryRoot).map((manifest) => manifest.folder);
    expect(folders).toEqual(expect.arrayContaining(['apps/main-api', 'packages/ledger', 'tools/bench', 'infra']));
  });
});

describe('parseFlowchart(source, firstLine)', () => {
  it('reads labels, chains, & lists and both arrow styles, skipping subgraphs, comments and styling', () => {
    const chart = parseFlowchart(
      [
        'flowchart TD',
        '  %% a comment --> not an arrow',
        '  subgraph apps["apps/ & more"]',
        '    shop["@acme/shop<br/>sells & ships"]',
        '  end',
        '  shop & admin([admin]) --> cart{"@acme/cart"} -.->|tests| money;',
        '  style shop fill:#fff',
      ].join('\n'),
      10,
    );
    expect(chart.problems).toEqual([]);
    expect(Object.fromEntries(chart.labels)).toEqual({
      shop: '@acme/shop',
      admin: 'admin',
      cart: '@acme/cart',
      money: 'money',
    });
    expect(chart.subgraphs).toEqual(new Set(['apps']));
    expect(chart.arrows).toEqual([
      { from: 'shop', to: 'cart', style: 'solid', line: 15 },
      { from: 'admin', to: 'cart', style: 'solid', line: 15 },
      { from: 'cart', to: 'money', style: 'dotted', line: 15 },
    ]);
  });

  it('reports an arrow it cannot read instead of skipping it', () => {
    const chart = parseFlowchart(
      ['flowchart LR', 'a ==> b', 'a --- b', 'a -- uses --> b', 'a["open --> b'].join('\n'),
      1,
    );
    expect(chart.problems.map((problem) => problem.split(':')[0])).toEqual(['line 2', 'line 3', 'line 4', 'line 5']);
    expect(chart.problems[0]).toContain('`a --> b` (dependencies) or `a -.-> b` (devDependencies)');
    expect(chart.arrows).toEqual([]);
  });
});

describe('sectionOf(markdown, heading)', () => {
  it("gives the Mermaid blocks and the text of the heading's section only", () => {
    const markdown = [
      '# Page',
      '## Workspaces',
      'Each `@acme/shop` line.',
      '```mermaid',
      'flowchart TD',
      '  shop --> cart',
      '```',
      '### A sub-heading stays in the section',
      '```mermaid',
      'flowchart TD',
      '```',
      '## Modules',
      '```mermaid',
      'flowchart TD',
      '  routes --> service',
      '```',
    ].join('\n');
    const section = sectionOf(markdown, 'Workspaces');
    expect(section?.blocks).toEqual([
      { source: 'flowchart TD\n  shop --> cart', line: 5 },
      { source: 'flowchart TD', line: 10 },
    ]);
    expect(section?.prose).toContain('@acme/shop');
    expect(section?.prose).not.toContain('routes');
    expect(sectionOf(markdown, 'Missing')).toBeUndefined();
  });
});

describe('diagramProblems(page, section, manifests)', () => {
  const manifests: Manifest[] = [
    { name: '@acme/shop', folder: 'apps/shop', dependencies: { '@acme/cart': 'workspace:*', fastify: '5.0.0' } },
    { name: '@acme/cart', folder: 'packages/cart', devDependencies: { '@acme/money': 'workspace:*' } },
    { name: '@acme/money', folder: 'packages/money' },
  ];
  const prose = 'The lines: @acme/shop sells, @acme/cart holds carts, @acme/money counts.';
  const section = (...lines: string[]): DiagramSection => ({
    blocks: [{ source: ['flowchart TD', ...lines].join('\n'), line: 20 }],
    prose,
  });

  it('finds nothing when the arrows are the workspace dependencies, solid and dotted, over several diagrams', () => {
    const drawn: DiagramSection = {
      blocks: [
        { source: 'flowchart TD\n  shop["@acme/shop"] --> cart["@acme/cart"]', line: 3 },
        { source: 'flowchart TD\n  c["@acme/cart"] -.-> m["@acme/money<br/>whole shillings"]', line: 9 },
      ],
      prose,
    };
    expect(diagramProblems('guide/map.md', drawn, manifests)).toEqual([]);
  });

  it('names an arrow drawn that no package.json has, and a dependency not drawn, with the change to make', () => {
    const drawn = section('  shop["@acme/shop"] --> money["@acme/money"]', '  cart["@acme/cart"] -.-> money');
    expect(diagramProblems('guide/map.md', drawn, manifests)).toEqual([
      'guide/map.md:21 draws @acme/shop --> @acme/money, but apps/shop/package.json does not list @acme/money: remove the arrow (or, if @acme/shop does use @acme/money, add it to the dependencies of apps/shop/package.json)',
      'apps/shop/package.json lists @acme/cart in its dependencies, and guide/map.md does not draw it: add `shop --> cart` to one of its workspace diagrams',
    ]);
  });

  it('tells a dependency drawn dotted, or a devDependency drawn solid, which arrow to draw instead', () => {
    const drawn = section('  shop["@acme/shop"] -.-> cart["@acme/cart"]', '  cart --> money["@acme/money"]');
    expect(diagramProblems('guide/map.md', drawn, manifests)).toEqual([
      'guide/map.md:21 draws @acme/shop -.-> @acme/cart, but apps/shop/package.json lists @acme/cart in its dependencies: draw it as `shop --> cart`',
      'guide/map.md:22 draws @acme/cart --> @acme/money, but packages/cart/package.json lists @acme/money in its devDependencies: draw it as `cart -.-> money`',
    ]);
  });

  it('names a workspace with no node or no line of text, a node that is no workspace, and an arrow from a subgraph', () => {
    const drawn: DiagramSection = {
      blocks: [
        {
          source: [
            'flowchart TD',
            '  subgraph apps',
            '    shop["@acme/shop"]',
            '  end',
            '  apps --> cart["@acme/cart"]',
            '  cart -.-> wallet["@acme/wallet"]',
          ].join('\n'),
          line: 40,
        },
      ],
      prose: 'Only @acme/shop and @acme/cart-tools are described.',
    };
    expect(diagramProblems('guide/map.md', drawn, manifests)).toEqual([
      "guide/map.md:44 draws an arrow from or to the subgraph `apps`: draw one arrow per dependency, between packages' nodes",
      'guide/map.md:45: node `wallet` is labelled "@acme/wallet", which is no workspace: begin each label with a package\'s name as its package.json spells it (`wallet["@platform/..."]`), or remove the node',
      'apps/shop/package.json lists @acme/cart in its dependencies, and guide/map.md does not draw it: add `shop --> cart` to one of its workspace diagrams',
      'packages/cart/package.json lists @acme/money in its devDependencies, and guide/map.md does not draw it: add `cart -.-> money` to one of its workspace diagrams',
      "@acme/cart (packages/cart) is not named in the text of guide/map.md's workspace section: add a line on what it holds",
      '@acme/money (packages/money) has no node in guide/map.md\'s workspace diagrams: add one, `money["@acme/money"]`, with its arrows',
      "@acme/money (packages/money) is not named in the text of guide/map.md's workspace section: add a line on what it holds",
    ]);
  });
});
