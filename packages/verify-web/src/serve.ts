import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// For this repository's own tools and tests (the local start's demo page, the browser tests), which run from the
// TypeScript sources: the SDK as a browser loads it. Not part of what the package ships (tsconfig.build.json leaves
// it out); an integrator installs the package or loads its dist/.

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Each module the build ships (`index.js`, which imports `./events.js` and `./start.js`), compiled from the sources
 * with the build's own compiler options, without source maps. Every module is self-contained TypeScript
 * (`isolatedModules`), so each compiles alone exactly as `tsc -p tsconfig.build.json` compiles it.
 */
export function browserModules(): ReadonlyMap<string, string> {
  const configPath = path.join(packageDir, 'tsconfig.build.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error(`Cannot read ${configPath}`);
  // The package is "type": "module", so the build's NodeNext emits ES modules; a lone file does not know that.
  const options = {
    ...config.options,
    module: ts.ModuleKind.ESNext,
    sourceMap: false,
    declaration: false,
    declarationMap: false,
  };
  const modules = new Map<string, string>();
  for (const file of config.fileNames) {
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: options, fileName: file });
    modules.set(path.basename(file).replace(/\.ts$/, '.js'), outputText);
  }
  return modules;
}
