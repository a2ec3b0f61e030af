/**
 * Transpile-only emit of the files the generator just wrote, for `svc dev`: the application can
 * restart with them at once instead of waiting for `tsc --watch` to type-check the project (1 to 3 s
 * on a small machine). The compiler still checks everything afterwards and reports its errors.
 * Uses the project's own TypeScript and compiler options, one file at a time (`transpileModule`).
 * `transpileModule` sees no package.json, so under `module: node16`/`nodenext` it would emit CommonJS
 * even in a `"type": "module"` project (what `nest new` writes): the format each file gets from its
 * package.json is looked up here, as tsc does, and given to it as the module kind.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type * as ts from 'typescript';
import type { SchematicChange } from '../../../schematics/run-schematic';

export interface FastEmitter {
  /** Emits the JavaScript (and source map) of each file; returns the output files written. */
  emit(files: readonly string[]): string[];
  /** Removes the output of deleted source files (tsc never does), so that nothing loads a stale entity. */
  remove(files: readonly string[]): void;
}

/** Applies a generation's changes: removes the output of deleted files, emits the others; returns the output files written. */
export function emitChanges(emitter: FastEmitter, changes: readonly SchematicChange[]): string[] {
  emitter.remove(changes.filter((change) => change.kind === 'delete').map((change) => change.path));
  return emitter.emit(changes.filter((change) => change.kind !== 'delete').map((change) => change.path));
}

/** An emitter for the project at `root` with its `tsconfig` file, or undefined when its settings cannot be read. */
export function createFastEmitter(root: string, tsconfig: string): FastEmitter | undefined {
  let typescript: typeof ts;
  try {
    typescript = require(require.resolve('typescript', { paths: [root] })) as typeof ts;
  } catch {
    return undefined;
  }
  const parsed = typescript.getParsedCommandLineOfConfigFile(
    join(root, tsconfig),
    {},
    {
      ...typescript.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  if (parsed === undefined || parsed.errors.length > 0) return undefined;
  const options = parsed.options;
  if (options.outDir === undefined || options.noEmit === true) return undefined;
  const rootDir = options.rootDir ?? root;
  const byPackageJson =
    options.module !== undefined && options.module >= typescript.ModuleKind.Node16 && options.module <= typescript.ModuleKind.NodeNext;
  const packageJsonCache = typescript.createModuleResolutionCache(root, (name) => name, options).getPackageJsonInfoCache();
  /** The compiler options of one file: under node16/nodenext, its module kind is the format its package.json gives it. */
  const optionsOf = (source: string): ts.CompilerOptions => {
    if (!byPackageJson) return options;
    const format = typescript.getImpliedNodeFormatForFile(source, packageJsonCache, typescript.sys, options);
    return format === typescript.ModuleKind.ESNext ? { ...options, module: typescript.ModuleKind.ESNext } : options;
  };
  const outDir = options.outDir;
  /** The output file of a source file, or undefined when it is not compiled into outDir. */
  const outputOf = (file: string): string | undefined => {
    const source = resolve(root, file);
    if (!/\.tsx?$/.test(source) || source.endsWith('.d.ts')) return undefined;
    const target = join(outDir, relative(rootDir, source)).replace(/\.tsx?$/, '.js');
    return relative(outDir, target).startsWith('..') ? undefined : target;
  };
  return {
    remove(files) {
      for (const file of files) {
        const target = outputOf(file);
        if (target === undefined) continue;
        rmSync(target, { force: true });
        rmSync(`${target}.map`, { force: true });
      }
    },
    emit(files) {
      const written: string[] = [];
      for (const file of files) {
        const source = resolve(root, file);
        const target = outputOf(file);
        if (target === undefined) continue;
        const output = typescript.transpileModule(readFileSync(source, 'utf8'), {
          compilerOptions: optionsOf(source),
          fileName: source,
        });
        mkdirSync(dirname(target), { recursive: true });
        let text = output.outputText;
        if (output.sourceMapText !== undefined) {
          writeFileSync(`${target}.map`, output.sourceMapText);
          // transpileModule names the map after the source file; tsc names it after the output.
          text = text.replace(/\/\/# sourceMappingURL=.*$/m, `//# sourceMappingURL=${basename(target)}.map`);
        }
        writeFileSync(target, text);
        written.push(target);
      }
      return written;
    },
  };
}
