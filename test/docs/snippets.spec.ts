/**
 * Every snippet of the README and docs/ is checked, unless its fence says `partial`:
 * - `.svcrc` snippets (JSON with `version` or `entities`) pass `svc schema validate`;
 * - other JSON parses;
 * - TypeScript compiles with `strict` against the package (`@svc/nest` = lib/index.ts), inside a copy of the
 *   app whose files it imports (the sample, or a test app), at the path its first-line comment gives;
 * - each shell command is one this project knows: `svc` commands and options as the CLI parses them, npm scripts
 *   that exist, curl with JSON bodies that parse. Blocks marked `tour` are run by getting-started.spec.ts.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as ts from 'typescript';
import { COMMANDS } from '../../cli/commands';
import { buildProgram } from '../../cli/program';
import type { SvcCommand } from '../../cli/svc-command';
import { packageJson } from '../../cli/templates/project-files';
import { ADMIN_SCRIPTS } from '../../schematics/admin/admin-app.emitter';
import { SMOKE_SCRIPT } from '../../schematics/nest-add/host-test-tooling';
import { assertBuilt, svc, tempDir } from '../cli/generate.helpers';
import { codeBlocks, markdownPages, ROOT, type CodeBlock } from './markdown';

const blocks = markdownPages().flatMap(codeBlocks);
const checked = (lang: string): CodeBlock[] => blocks.filter((block) => block.lang === lang && !block.flags.includes('partial'));
const where = (block: CodeBlock): string => `${block.page}:${block.line}`;

function isSvcrc(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && ('entities' in value || 'version' in value);
}

describe('JSON snippets', () => {
  const json = checked('json');

  it('parse', () => {
    const broken = json.filter((block) => {
      try {
        JSON.parse(block.code);
        return false;
      } catch {
        return true;
      }
    });
    expect(broken.map(where)).toEqual([]);
  });

  it('that set up logins (auth.userEntity) name a sessionEntity, so that logout and revocation end access tokens at once', () => {
    const logins = json.filter((block) => {
      const auth = (JSON.parse(block.code) as { auth?: { userEntity?: unknown } }).auth;
      return typeof auth === 'object' && auth !== null && auth.userEntity !== undefined;
    });
    expect(logins.length).toBeGreaterThanOrEqual(3);
    const withoutSession = logins.filter((block) => (JSON.parse(block.code) as { auth: { sessionEntity?: unknown } }).auth.sessionEntity === undefined);
    expect(withoutSession.map(where)).toEqual([]);
  });

  it('that are .svcrc files pass svc schema validate', () => {
    assertBuilt();
    const dir = tempDir('docs-svcrc');
    const svcrcs = json.filter((block) => isSvcrc(JSON.parse(block.code)));
    expect(svcrcs.length).toBeGreaterThanOrEqual(4);
    const invalid = svcrcs.flatMap((block, index) => {
      const file = join(dir, `snippet-${index}.svcrc`);
      writeFileSync(file, block.code);
      const run = svc(dir, ['schema', 'validate', '--file', file]);
      return run.code === 0 ? [] : [`${where(block)}: ${run.stdout}${run.stderr}`];
    });
    expect(invalid).toEqual([]);
  });
});

/** Apps whose files TypeScript snippets may import, tried in order. */
const APPS = ['sample/01-lending-library', 'test/apps/seam', 'test/apps/identity'];
// Under node_modules so that the copies resolve @nestjs/*, typeorm... from the repository.
const WORK_DIR = join(ROOT, 'node_modules', '.cache', 'svc-docs-snippets', String(process.pid));

/** From a first line `// [<app>/]src/x.ts ...`: the app it names, if any, and the path in the app. */
function declaredPlace(code: string): { app?: string; path?: string } {
  const match = /^\/\/ ((?:sample|test\/apps)\/[\w-]+\/)?(src\/[\w./-]+\.ts)\b/.exec(code);
  return { app: match?.[1]?.replace(/\/$/, ''), path: match?.[2] };
}

function relativeImports(code: string): string[] {
  return [...code.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => match[1]);
}

/** The first app in which the snippet's relative imports resolve, placed at its declared path. */
function appFor(block: CodeBlock): { app: string; path: string } | undefined {
  const declared = declaredPlace(block.code);
  for (const app of declared.app ? [declared.app] : APPS) {
    const path = declared.path ?? 'src/snippet.ts';
    const resolves = relativeImports(block.code).every((specifier) => {
      const target = join(ROOT, app, dirname(path), specifier);
      return existsSync(`${target}.ts`) || existsSync(join(target, 'index.ts'));
    });
    if (resolves) return { app, path };
  }
  return undefined;
}

function diagnostics(files: string[]): readonly ts.Diagnostic[] {
  const options: ts.CompilerOptions = {
    // Bundler resolution: snippets import relative files without extensions and may use top-level await.
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    paths: { '@svc/nest': [join(ROOT, 'lib', 'index.ts')] },
  };
  return ts.getPreEmitDiagnostics(ts.createProgram(files, options));
}

function format(diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (!diagnostic.file || diagnostic.start === undefined) return message;
  const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${diagnostic.file.fileName.slice(WORK_DIR.length + 1)}:${line + 1} ${message}`;
}

describe('TypeScript snippets', () => {
  afterAll(() => rmSync(WORK_DIR, { recursive: true, force: true }));

  it('import only files of an app that exists', () => {
    expect(checked('ts').filter((block) => appFor(block) === undefined).map(where)).toEqual([]);
  });

  it('compile with strict inside that app', () => {
    rmSync(WORK_DIR, { recursive: true, force: true });
    // Each snippet in its own copy of its app, all type-checked by one program.
    const snippets = checked('ts').flatMap((block, index) => {
      const placement = appFor(block);
      if (!placement) return [];
      const dir = join(WORK_DIR, `snippet-${index}`);
      cpSync(join(ROOT, placement.app, 'src'), join(dir, 'src'), { recursive: true, filter: (source) => !source.endsWith('.spec.ts') });
      const file = join(dir, placement.path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, block.code);
      return [{ block, dir, file, app: placement.app }];
    });
    expect(snippets.length).toBeGreaterThan(10);
    const found = diagnostics(snippets.map((snippet) => snippet.file));
    const failures = snippets.flatMap(({ block, dir, app }) => {
      const own = found.filter((diagnostic) => diagnostic.file?.fileName.startsWith(`${dir}/`));
      return own.length === 0 ? [] : [`${where(block)} (in ${app}):\n  ${own.map(format).join('\n  ')}`];
    });
    expect(failures).toEqual([]);
    expect(found.filter((diagnostic) => !diagnostic.file).map(format)).toEqual([]);
  }, 300_000);
});

/** Commands a snippet may use besides svc, npm and curl. */
const TOOLS = new Set(['cd', 'git', 'echo', 'printf', 'export', 'openssl', 'node', 'nest', 'docker', 'psql', 'cat', 'tar', 'bash', 'mkdir', 'cp', 'ls']);

function commandLines(code: string): string[] {
  return code
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line.length > 0 && !line.startsWith('$ ') && !line.startsWith('✔') && !line.startsWith('✖'));
}

/** Splits `a && (b; c) | d` into its simple commands, as words, without leading VAR=value assignments. */
function simpleCommands(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let quoted = false;
  const endWord = (): void => {
    if (word !== '' || quoted) words.push(word);
    word = '';
    quoted = false;
  };
  const endCommand = (): void => {
    endWord();
    const start = words.findIndex((candidate) => !/^[A-Z_][A-Z0-9_]*=/.test(candidate));
    if (start !== -1) commands.push(words.slice(start));
    words = [];
  };
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      quoted = true;
    } else if (/\s/.test(char)) endWord();
    else if ('&|;()'.includes(char)) endCommand();
    else word += char;
  }
  endCommand();
  return commands;
}

/** The svc arguments of `svc …`, `npx svc …`, `npx -y -p <spec> svc …`; undefined for other commands. */
function svcArguments(words: string[]): string[] | undefined {
  if (words[0] === 'svc') return words.slice(1);
  if (words[0] !== 'npx') return undefined;
  const at = words.indexOf('svc');
  return at === -1 ? undefined : words.slice(at + 1);
}

async function svcParses(args: string[]): Promise<string | undefined> {
  const silent = { out: () => undefined, err: () => undefined };
  const inert = COMMANDS.map((command): SvcCommand => ({ ...command, run: () => 0 }));
  const program = buildProgram(inert, silent);
  const fail = (command: typeof program): void => {
    command.exitOverride();
    command.commands.forEach(fail);
  };
  fail(program);
  try {
    await program.parseAsync(['node', 'svc', ...args]);
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === 'commander.helpDisplayed' || code === 'commander.version' ? undefined : `svc ${args.join(' ')}: ${(error as Error).message}`;
  }
}

const OWN_PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: object;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  engines: { node: string };
};
const ROOT_SCRIPTS = Object.keys(OWN_PACKAGE.scripts);
/** The scripts of the package.json `svc init` writes. */
const APP_SCRIPTS = Object.keys(
  (
    JSON.parse(
      packageJson({
        name: 'docs-check',
        adapter: 'express',
        svcPackageSpec: '^0.1.0',
        versions: { ...OWN_PACKAGE.devDependencies, ...OWN_PACKAGE.dependencies },
        nodeEngines: OWN_PACKAGE.engines.node,
      }),
    ) as { scripts: object }
  ).scripts,
);

/** What `nest add @svc/nest` adds to the scripts of a `nest new` project. */
const NEST_ADD_SCRIPTS = [SMOKE_SCRIPT];

/** The scripts of the admin app `svc generate --admin` writes (docs/admin.md runs them in that folder). */
const ADMIN_APP_SCRIPTS = Object.keys(ADMIN_SCRIPTS);

async function commandProblem(words: string[]): Promise<string | undefined> {
  const svcArgs = svcArguments(words);
  if (svcArgs) return svcParses(svcArgs);
  const [tool, sub, script] = words;
  if (tool === 'npx') return ['schematics', 'tsc', 'nest'].includes(words[1]) ? undefined : `unknown npx command ${words[1]}`;
  if (tool === 'npm') {
    if (['ci', 'install', 'i', 'pack', 'test'].includes(sub)) return undefined;
    if (sub === 'run') {
      return [...ROOT_SCRIPTS, ...APP_SCRIPTS, ...NEST_ADD_SCRIPTS, ...ADMIN_APP_SCRIPTS].includes(script) ? undefined : `npm run ${script}: no such script`;
    }
    return `npm ${sub}: not checked`;
  }
  if (tool === 'curl') {
    const url = words.find((word) => /^(https?:\/\/)?(localhost|127\.0\.0\.1)[:/]/.test(word));
    if (!url) return `curl without a localhost URL: ${words.join(' ')}`;
    const data = words[words.indexOf('-d') + 1];
    const sendsJson = words.some((word) => /^content-type:\s*application\/json/i.test(word));
    if (words.includes('-d') && sendsJson && !data.startsWith('@')) {
      try {
        JSON.parse(data);
      } catch {
        return `curl -d ${data}: not JSON`;
      }
    }
    return undefined;
  }
  return TOOLS.has(tool) ? undefined : `unknown command ${tool}`;
}

describe('shell snippets', () => {
  const shell = blocks.filter((block) => ['bash', 'sh', 'shell'].includes(block.lang) && !block.flags.includes('partial'));

  it('use only commands, options and scripts that exist', async () => {
    expect(shell.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const block of shell) {
      for (const line of commandLines(block.code)) {
        for (const words of simpleCommands(line)) {
          const problem = await commandProblem(words);
          if (problem) problems.push(`${where(block)}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('refuse what does not exist', async () => {
    expect(await commandProblem(['npx', 'svc', 'generate', '--entitty', 'Task'])).toMatch(/unknown option '--entitty'/);
    expect(await commandProblem(['svc', 'migrat'])).toMatch(/unknown command/);
    expect(await commandProblem(['npm', 'run', 'nope'])).toBe('npm run nope: no such script');
    expect(await commandProblem(['npm', 'run', 'migrate:run'])).toBeUndefined(); // a script of the app svc init writes
    expect(await commandProblem(['curl', '-H', 'Content-Type: application/json', '-d', '{x}', 'localhost:3100/a'])).toBe('curl -d {x}: not JSON');
    expect(await commandProblem(['curl', 'example.com/a'])).toBe('curl without a localhost URL: curl example.com/a');
    expect(await commandProblem(['svc', 'generate', '--entity', 'Task', '--dry-run'])).toBeUndefined();
  });
});
