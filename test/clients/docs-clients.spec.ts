/**
 * Every TypeScript snippet of docs/clients.md compiles (strictly, with the DOM library, against the
 * installed providers and the generated client), and the Refine error mapping it gives turns a
 * refused body into Refine form errors against a live app.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { HttpError } from '@refinedev/core';
import ts from 'typescript';
import { type ClientsApp, startClientsApp } from './clients-app';

const ROOT = resolve(__dirname, '../..');
const DOC = join(ROOT, 'docs/clients.md');

/** The ```ts blocks of the page, in order. */
function snippets(): string[] {
  const text = readFileSync(DOC, 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
}

describe('docs/clients.md', () => {
  let dir: string;
  let app: ClientsApp | undefined;

  beforeAll(() => {
    // Inside the repository, so that the snippets resolve the installed packages.
    dir = mkdtempSync(join(__dirname, '.snippets-'));
    mkdirSync(join(dir, 'api'));
    cpSync(join(ROOT, 'test/apps/clients/src/api/svc-client.ts'), join(dir, 'api/svc-client.ts'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await app?.close();
  });

  it('has TypeScript snippets that all compile', () => {
    const blocks = snippets();
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const files = blocks.map((code, index) => {
      const file = join(dir, `snippet-${index}.ts`);
      writeFileSync(file, code);
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      esModuleInterop: true,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    expect(problems).toEqual([]);
  });

  it('maps errors[] into Refine form errors with the snippet it gives', async () => {
    const snippet = snippets().find((code) => code.includes('axiosInstance.interceptors'));
    expect(snippet).toBeDefined();
    app = await startClientsApp('pglite');
    const code = ts.transpileModule(snippet!.replace('http://localhost:3100', app.url), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    }).outputText;
    const module = { exports: {} as { provider?: ReturnType<typeof import('@refinedev/nestjsx-crud').default> } };
    new Function('require', 'module', 'exports', code)(require, module, module.exports);
    const provider = module.exports.provider!;

    const refused = (await provider
      .create({ resource: 'posts', variables: { title: 7, views: 'many' } })
      .catch((caught: unknown) => caught)) as HttpError;
    expect(refused.statusCode).toBe(400);
    expect(refused.errors).toEqual({ title: ['title must be a string'], views: [expect.stringMatching(/^views /)] });

    const conflict = (await provider
      .create({ resource: 'categories', variables: { title: 'Science' } })
      .catch((caught: unknown) => caught)) as HttpError;
    expect(conflict.statusCode).toBe(409);
    expect(Object.values(conflict.errors ?? {}).flat()).toEqual([expect.stringContaining('title')]);
  });
});
