// ora (reached through @angular-devkit/schematics' package-manager task) is an ECMAScript module
// jest cannot load here; no test installs packages.
jest.mock('ora', () => ({ __esModule: true, default: () => ({}) }));

import { logging } from '@angular-devkit/core';
import type { UnitTestTree } from '@angular-devkit/schematics/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shortHash } from '../../schematics/utils/generated-file';
import { bodyOf, changedPaths, committedTree, generate, nestNewTree, readText, REPO_ROOT, snapshot, testRunner } from './helpers';

const goldenSvcrc = readFileSync(join(REPO_ROOT, 'test', 'apps', 'crud', '.svcrc'), 'utf8');
const golden = JSON.parse(goldenSvcrc) as {
  entities: { name: string; fields: Record<string, unknown>[] }[];
  relationships: { from: string; to: string }[];
};

const TASK_ENTITY = '/src/autogen/tasks/task.entity.ts';
const MANIFEST = '/src/autogen/.svc-manifest.json';
const EXTENSIONS_MODULE = '/src/extensions/extensions.module.ts';

/** The golden `.svcrc` with a field added to Task. */
function withTaskField(): object {
  const copy = structuredClone(golden);
  copy.entities.find((entity) => entity.name === 'Task')?.fields.push({ name: 'points', type: 'integer', nullable: true });
  return copy;
}

/** The golden `.svcrc` without LoanItem. */
function withoutLoanItem(): object {
  const copy = structuredClone(golden);
  copy.entities = copy.entities.filter((entity) => entity.name !== 'LoanItem');
  return copy;
}

function editBody(tree: UnitTestTree, path: string, edit: (body: string) => string): void {
  tree.overwrite(path, readText(tree, path).replace(/\n\n([\s\S]*)$/, (_, body: string) => `\n\n${edit(body)}`));
}

describe('regeneration', () => {
  let first: UnitTestTree;
  beforeEach(async () => {
    first = await generate(await nestNewTree('cjs'), goldenSvcrc);
  });

  it('is byte-identical and makes no change when .svcrc did not change', async () => {
    const again = await generate(first);
    expect(again.actions).toEqual([]);
    expect(snapshot(again)).toEqual(snapshot(first));
  });

  it('generates the same bytes from scratch and incrementally', async () => {
    const incremental = await generate(first, withTaskField());
    const scratch = await generate(await nestNewTree('cjs'), withTaskField());
    const generated = (tree: UnitTestTree) => new Map([...snapshot(tree)].filter(([path]) => /\/(autogen|guards)\//.test(path)));
    expect(generated(incremental)).toEqual(generated(scratch));
  });

  it('rewrites only files whose own content changed: one field on Task touches the Task files that list it and the model', async () => {
    const next = await generate(first, withTaskField());
    const changed = changedPaths(snapshot(first), snapshot(next));
    expect(changed).toEqual(['/.svcrc', MANIFEST, '/src/autogen/svc.schema.ts', '/src/autogen/tasks/task.dto.ts', TASK_ENTITY].sort());
    expect(bodyOf(readText(next, TASK_ENTITY))).toContain('  points!: number | null;\n');
  });

  it('keeps the hash of the whole model in the manifest, not in the headers', async () => {
    const next = await generate(first, withTaskField());
    const before = JSON.parse(readText(first, MANIFEST)) as { sourceHash: string };
    const after = JSON.parse(readText(next, MANIFEST)) as { sourceHash: string };
    expect(after.sourceHash).toMatch(/^[0-9a-f]{12}$/);
    expect(after.sourceHash).not.toBe(before.sourceHash);
    for (const path of next.files.filter((file) => file.endsWith('.ts'))) expect(readText(next, path)).not.toContain(after.sourceHash);
  });

  it('reads headers of earlier versions (with a source-hash line) as unedited and rewrites them once', async () => {
    for (const path of first.files.filter((file) => /\/(autogen|guards)\/.*\.ts$/.test(file))) {
      first.overwrite(path, readText(first, path).replace(/^(\/\/ Generated[^\n]*\n)/, '$1// source-hash: 0123456789ab\n'));
    }
    const next = await generate(first);
    expect(readText(next, TASK_ENTITY)).not.toContain('source-hash');
  });

  describe('hand edits', () => {
    it('refuses to overwrite a file whose body no longer matches its content-hash, naming it', async () => {
      editBody(first, TASK_ENTITY, (body) => body.replace('title!: string;', 'title!: string; // mine'));
      await expect(generate(first, withTaskField())).rejects.toThrow(
        'Refusing to regenerate: these generated files were edited by hand and would lose the edits:\n' +
          '  - src/autogen/tasks/task.entity.ts: edited by hand (its body no longer matches its content-hash)\n' +
          'Move custom code to src/extensions/ (or change .svcrc) and restore the files, or run again with --force to overwrite them.',
      );
    });

    it('refuses even when .svcrc did not change, and names every edited file', async () => {
      editBody(first, TASK_ENTITY, (body) => `${body}// note\n`);
      editBody(first, '/src/guards/guards.module.ts', (body) => `${body}// note\n`);
      const error = await generate(first).catch((caught: Error) => caught);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain('  - src/autogen/tasks/task.entity.ts: edited by hand');
      expect((error as Error).message).toContain('  - src/guards/guards.module.ts: edited by hand');
    });

    it('changes nothing at all when it refuses', async () => {
      editBody(first, TASK_ENTITY, (body) => `${body}// note\n`);
      const input = committedTree(first);
      await expect(testRunner().runSchematic('resource', {}, input)).rejects.toThrow('Refusing to regenerate');
      expect(input.actions).toEqual([]);
    });

    it('detects a removed header and a file that was never generated', async () => {
      first.overwrite(TASK_ENTITY, bodyOf(readText(first, TASK_ENTITY)));
      first.overwrite('/src/autogen/tasks/task.dto.ts', 'export const mine = 1;\n');
      const error = (await generate(first).catch((caught: Error) => caught)) as Error;
      expect(error.message).toContain('  - src/autogen/tasks/task.dto.ts: it was not generated by @svc/nest (no generated header)');
      expect(error.message).toContain('  - src/autogen/tasks/task.entity.ts: it was not generated by @svc/nest (no generated header)');
    });

    it('detects an edit whose header hash was updated too, through the manifest', async () => {
      const text = readText(first, TASK_ENTITY);
      const body = `${bodyOf(text)}// note\n`;
      const lines = text.split('\n');
      first.overwrite(TASK_ENTITY, [lines[0], `// content-hash: ${shortHash(body)}`, '', body].join('\n'));
      await expect(generate(first)).rejects.toThrow(/src\/autogen\/tasks\/task\.entity\.ts: its content-hash \w{12} differs from the manifest's \w{12}/);
    });

    it('--force overwrites hand-edited files and says which', async () => {
      editBody(first, TASK_ENTITY, (body) => `${body}// note\n`);
      const warnings: string[] = [];
      const subscription = testRunner().logger.subscribe((entry: logging.LogEntry) => {
        if (entry.level === 'warn') warnings.push(entry.message);
      });
      const forced = await generate(first, withTaskField(), { force: true });
      subscription.unsubscribe();
      const fresh = await generate(await nestNewTree('cjs'), withTaskField());
      expect(readText(forced, TASK_ENTITY)).toBe(readText(fresh, TASK_ENTITY));
      expect(warnings.join('\n')).toContain('--force: overwriting or deleting generated files that were edited by hand:\n  - src/autogen/tasks/task.entity.ts');
    });

    it('treats a CRLF checkout of an unchanged file as unchanged', async () => {
      first.overwrite(TASK_ENTITY, readText(first, TASK_ENTITY).replace(/\n/g, '\r\n'));
      const again = await generate(first);
      expect(again.actions).toEqual([]);
    });
  });

  describe('entities removed from .svcrc', () => {
    it('deletes their files and drops them from the module and the manifest', async () => {
      const next = await generate(first, withoutLoanItem());
      expect(next.files.filter((path) => path.includes('loan-item'))).toEqual([]);
      expect(readText(next, '/src/autogen/autogen.module.ts')).not.toContain('LoanItem');
      expect(readText(next, MANIFEST)).not.toContain('loan-item');
    });

    it('deletes generated files the manifest lost track of', async () => {
      first.overwrite(MANIFEST, '{ "generator": "@svc/nest", "sourceHash": "", "files": {} }\n');
      const next = await generate(first, withoutLoanItem());
      expect(next.files.filter((path) => path.includes('loan-item') && !path.startsWith('/src/extensions/'))).toEqual([]);
    });

    it('keeps the edited team files of a removed entity, and deletes those still exactly as first created', async () => {
      const edited = `${readText(first, '/src/extensions/loan-items/loan-item.service.ts')}// mine\n`;
      first.overwrite('/src/extensions/loan-items/loan-item.service.ts', edited);
      const next = await generate(first, withoutLoanItem());
      expect(readText(next, '/src/extensions/loan-items/loan-item.service.ts')).toBe(edited);
      expect(next.exists('/src/extensions/loan-items/loan-item.controller.ts')).toBe(false);
    });

    it('refuses to delete a hand-edited one, unless --force', async () => {
      editBody(first, '/src/autogen/loan-items/loan-item.service.base.ts', (body) => `${body}// mine\n`);
      await expect(generate(first, withoutLoanItem())).rejects.toThrow(
        '  - src/autogen/loan-items/loan-item.service.base.ts (to delete: no longer generated): edited by hand',
      );
      const forced = await generate(first, withoutLoanItem(), { force: true });
      expect(forced.exists('/src/autogen/loan-items/loan-item.service.base.ts')).toBe(false);
    });

    it('keeps files that do not look generated (an app file inside autogen/)', async () => {
      first.create('/src/autogen/loan-items/notes.md', 'mine\n');
      first.create('/src/autogen/custom.ts', 'export const mine = 1;\n');
      const next = await generate(first, withoutLoanItem());
      expect(readText(next, '/src/autogen/loan-items/notes.md')).toBe('mine\n');
      expect(readText(next, '/src/autogen/custom.ts')).toBe('export const mine = 1;\n');
    });

    it('does not delete anything in a --entity run, and keeps the other manifest entries', async () => {
      const next = await generate(first, withoutLoanItem(), { entity: 'Task' });
      expect(next.exists('/src/autogen/loan-items/loan-item.entity.ts')).toBe(true);
      const manifest = JSON.parse(readText(next, MANIFEST)) as { files: Record<string, string> };
      expect(Object.keys(manifest.files)).toEqual(Object.keys(JSON.parse(readText(first, MANIFEST)).files));
    });
  });

  describe('src/extensions/', () => {
    it('is never written nor deleted, even when the manifest lists it or a file there looks generated', async () => {
      const sneaky = readText(first, '/src/autogen/loan-items/loan-item.service.base.ts');
      first.create('/src/extensions/loan-item.service.ts', sneaky);
      first.create('/src/extensions/tasks.controller.ts', 'export class TasksExtension {}\n');
      const manifest = JSON.parse(readText(first, MANIFEST)) as { files: Record<string, string> };
      manifest.files['src/extensions/loan-item.service.ts'] = 'aaaaaaaaaaaa';
      first.overwrite(MANIFEST, JSON.stringify(manifest));
      const before = snapshot(first);
      const next = await generate(first, withoutLoanItem(), { force: true });
      const after = snapshot(next);
      // Except the removed entity's subclasses still exactly as first created (see "entities removed from .svcrc"), and
      // their module's registration in the extensions module.
      const team = (file: string): boolean =>
        file.startsWith('/src/extensions/') && !file.startsWith('/src/extensions/loan-items/') && file !== EXTENSIONS_MODULE;
      for (const path of [...before.keys()].filter(team)) {
        expect(after.get(path)).toBe(before.get(path));
      }
      expect(changedPaths(before, after).filter(team)).toEqual([]);
      expect(after.get(EXTENSIONS_MODULE)).toBe(
        before.get(EXTENSIONS_MODULE)?.replace("import { LoanItemModule } from './loan-items/loan-item.module';\n", '').replace(', LoanItemModule]', ']'),
      );
    });

    it('adds the module of an entity new in .svcrc to the extensions module, keeping the team\'s edits of it', async () => {
      const next = await generate(first, withoutLoanItem());
      const edited = readText(next, EXTENSIONS_MODULE)
        .replace("import { Module } from '@nestjs/common';\n", "import { Module } from '@nestjs/common';\nimport { AuditListener } from './audit.listener';\n")
        .replace('  imports: [OwnerModule, ProjectModule, TaskModule, CommentModule],\n', '  imports: [OwnerModule, ProjectModule, TaskModule, CommentModule],\n  providers: [AuditListener],\n');
      next.overwrite(EXTENSIONS_MODULE, edited);
      const again = await generate(next, goldenSvcrc);
      expect(again.exists('/src/extensions/loan-items/loan-item.module.ts')).toBe(true);
      expect(readText(again, EXTENSIONS_MODULE)).toBe(
        edited
          .replace("import { TaskModule } from './tasks/task.module';\n", "import { TaskModule } from './tasks/task.module';\nimport { LoanItemModule } from './loan-items/loan-item.module';\n")
          .replace('CommentModule],', 'CommentModule, LoanItemModule],'),
      );
      // A second run adds nothing twice.
      expect((await generate(again)).actions).toEqual([]);
    });

    it('never creates a team file again: a moved, renamed or deleted one stays so, and src/autogen/ does not change', async () => {
      const controller = readText(first, '/src/extensions/tasks/task.controller.ts');
      first.delete('/src/extensions/tasks/task.controller.ts');
      first.create('/src/extensions/tasks/http/task-routes.controller.ts', controller.replaceAll("'../../autogen/", "'../../../autogen/"));
      const module = readText(first, '/src/extensions/tasks/task.module.ts');
      first.overwrite('/src/extensions/tasks/task.module.ts', module.replace("'./task.controller'", "'./http/task-routes.controller'"));
      first.delete('/src/extensions/smoke-setup.ts');
      const next = await generate(first);
      expect(next.actions).toEqual([]);
      expect(next.exists('/src/extensions/tasks/task.controller.ts')).toBe(false);
      expect(next.exists('/src/extensions/smoke-setup.ts')).toBe(false);
    });
  });

  describe('the manifest', () => {
    it('refuses an unreadable manifest, and --force rebuilds it', async () => {
      first.overwrite(MANIFEST, '{ not json');
      await expect(generate(first)).rejects.toThrow(/src\/autogen\/\.svc-manifest\.json is not a valid manifest .*delete it or run again with --force/);
      const forced = await generate(first, undefined, { force: true });
      expect(readText(forced, MANIFEST)).toBe(readText(await generate(await nestNewTree('cjs'), goldenSvcrc), MANIFEST));
    });
  });
});
