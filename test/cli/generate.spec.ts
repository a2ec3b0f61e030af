/**
 * `svc generate` as a user runs it: the built CLI (`npm run build` first) in a project folder.
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertBuilt, readJson, svc, tempDir, writeJson } from './generate.helpers';

const TASKS = {
  $schema: './node_modules/@svc/nest/schemas/svcrc.schema.json',
  version: 2,
  entities: [
    { name: 'Project', fields: [{ name: 'name', type: 'text' }] },
    {
      name: 'Task',
      fields: [
        { name: 'title', type: 'text' },
        { name: 'done', type: 'boolean', default: false },
      ],
    },
  ],
  relationships: [{ from: 'Task', to: 'Project', type: 'ManyToOne' }],
};

let dir: string;

function project(svcrc: unknown = TASKS): string {
  writeJson(join(dir, 'package.json'), { name: 'gen-test', version: '0.0.0', private: true });
  writeJson(join(dir, '.svcrc'), svcrc);
  return dir;
}

beforeAll(assertBuilt);
beforeEach(() => {
  dir = tempDir('generate');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('svc generate', () => {
  it('documents its options in --help', () => {
    const run = svc(dir, ['generate', '--help']);
    expect(run.code).toBe(0);
    for (const option of ['--entity <Name>', '--dry-run', '--force', '--schema <file>']) expect(run.stdout).toContain(option);
  });

  it('creates src/autogen/ from .svcrc, prints each change and a summary', () => {
    project();
    const run = svc(dir, ['generate']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    for (const file of [
      'tasks/task.entity.ts',
      'tasks/task.controller.base.ts',
      'projects/project.dto.ts',
      'autogen.module.ts',
      'svc.schema.ts',
    ]) {
      expect(lines).toContain(`CREATE src/autogen/${file}`);
      expect(existsSync(join(dir, 'src', 'autogen', file))).toBe(true);
    }
    const created = lines.filter((line) => line.startsWith('CREATE ')).length;
    expect(lines[lines.length - 1]).toBe(`✔ Generated 2 entities: ${created} created, 0 updated, 0 deleted`);
    expect(readFileSync(join(dir, 'src/autogen/tasks/task.entity.ts'), 'utf8')).toContain('projectId');
  });

  it('says "Nothing to change" on a second run', () => {
    project();
    svc(dir, ['generate']);
    const run = svc(dir, ['generate']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('✔ Nothing to change: src/autogen/ is up to date with .svcrc (2 entities)\n');
  });

  it('updates and deletes files when .svcrc changes', () => {
    project();
    svc(dir, ['generate']);
    writeJson(join(dir, '.svcrc'), {
      ...TASKS,
      entities: [
        {
          name: 'Task',
          fields: [
            { name: 'title', type: 'text' },
            { name: 'due', type: 'timestamptz', nullable: true },
          ],
        },
      ],
      relationships: [],
    });
    const run = svc(dir, ['generate']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('UPDATE src/autogen/tasks/task.entity.ts');
    expect(run.stdout).toContain('DELETE src/autogen/projects/project.entity.ts');
    expect(existsSync(join(dir, 'src/autogen/projects/project.entity.ts'))).toBe(false);
    expect(readFileSync(join(dir, 'src/autogen/tasks/task.entity.ts'), 'utf8')).toContain('due');
  });

  it('updates only the files that change when one field is added to one entity', () => {
    project();
    svc(dir, ['generate']);
    const task = TASKS.entities[1];
    writeJson(join(dir, '.svcrc'), {
      ...TASKS,
      entities: [TASKS.entities[0], { ...task, fields: [...task.fields, { name: 'points', type: 'integer', nullable: true }] }],
    });
    const run = svc(dir, ['generate']);
    expect(run.code).toBe(0);
    const updated = run.stdout.split('\n').filter((line) => line.startsWith('UPDATE ')).sort();
    expect(updated).toEqual([
      'UPDATE src/autogen/.svc-manifest.json',
      'UPDATE src/autogen/svc.schema.ts',
      'UPDATE src/autogen/tasks/task.dto.ts',
      'UPDATE src/autogen/tasks/task.entity.ts',
    ]);
    expect(run.stdout).toContain('✔ Generated 2 entities: 0 created, 4 updated, 0 deleted');
  });

  it('writes nothing with --dry-run', () => {
    project();
    const run = svc(dir, ['generate', '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('CREATE src/autogen/tasks/task.entity.ts');
    expect(run.stdout).toMatch(/Dry run \(2 entities\): \d+ created, 0 updated, 0 deleted — nothing was written\n$/);
    expect(existsSync(join(dir, 'src'))).toBe(false);
  });

  it('generates a single entity with --entity, plus the entities its relations reach', () => {
    project({ ...TASKS, entities: [...TASKS.entities, { name: 'Tag', fields: [{ name: 'label', type: 'text' }] }] });
    const run = svc(dir, ['generate', '--entity', 'Project']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('CREATE src/autogen/projects/project.entity.ts');
    // Project's entity file holds the inverse side of Task.project: without Task's files it would not compile.
    expect(run.stdout).toContain('Project is related to Task: generating their files too.');
    expect(run.stdout).toContain('CREATE src/autogen/tasks/task.entity.ts');
    expect(run.stdout).not.toContain('tags/');
    expect(run.stdout).toContain('✔ Generated entity Project:');
  });

  it('fails on an unknown --entity with the known ones', () => {
    project();
    const run = svc(dir, ['generate', '--entity', 'Invoice']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('✖ Unknown entity "Invoice" in .svcrc. Known entities: Project, Task.\n');
  });

  it('validates .svcrc first: prints every problem like svc schema validate and writes nothing', () => {
    project({
      version: 2,
      entities: [
        {
          name: 'Task',
          fields: [
            { name: 'title', type: 'txt' },
            { name: 'done', type: 'boolean', nulable: true },
          ],
        },
      ],
    });
    const run = svc(dir, ['generate']);
    expect(run.code).toBe(1);
    const validate = svc(dir, ['schema', 'validate']);
    const problems = validate.stdout.split('\n').filter((line) => line.startsWith('✖ '));
    expect(problems.length).toBe(2);
    for (const problem of problems) expect(run.stderr).toContain(problem);
    expect(run.stderr).toContain('.svcrc is invalid: 2 problems. Fix it, then run svc generate again.');
    expect(existsSync(join(dir, 'src'))).toBe(false);
  });

  it('fails clearly without .svcrc', () => {
    const run = svc(dir, ['generate']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^✖ cannot read .*\.svcrc: file not found/);
  });

  it("refuses to overwrite a hand-edited generated file (exit 1, the schematic's message), and --force overwrites it", () => {
    project();
    svc(dir, ['generate']);
    const entity = join(dir, 'src/autogen/tasks/task.entity.ts');
    appendFileSync(entity, '// my change\n');
    writeJson(join(dir, '.svcrc'), {
      ...TASKS,
      entities: [
        TASKS.entities[0],
        { ...TASKS.entities[1], fields: [...TASKS.entities[1].fields, { name: 'note', type: 'text', nullable: true }] },
      ],
    });
    const refused = svc(dir, ['generate']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('✖ Refusing to regenerate: these generated files were edited by hand and would lose the edits:');
    expect(refused.stderr).toContain('src/autogen/tasks/task.entity.ts');
    expect(readFileSync(entity, 'utf8')).toContain('// my change');

    const forced = svc(dir, ['generate', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('--force: overwriting or deleting generated files that were edited by hand');
    expect(forced.stdout).toContain('UPDATE src/autogen/tasks/task.entity.ts');
    expect(readFileSync(entity, 'utf8')).not.toContain('// my change');
  });

  it('never changes nor deletes a file in src/extensions/, and creates a team file only once', () => {
    project();
    svc(dir, ['generate']);
    const custom = join(dir, 'src/extensions/tasks.extra.ts');
    writeFileSync(custom, 'export const extra = 1;\n');
    const service = join(dir, 'src/extensions/projects/project.service.ts');
    writeFileSync(service, `${readFileSync(service, 'utf8')}// mine\n`);
    const controller = join(dir, 'src/extensions/projects/project.controller.ts');
    const generatedController = readFileSync(controller, 'utf8');
    rmSync(controller);
    writeJson(join(dir, '.svcrc'), { ...TASKS, entities: [TASKS.entities[0]], relationships: [] });
    expect(svc(dir, ['generate']).code).toBe(0);
    expect(readFileSync(custom, 'utf8')).toBe('export const extra = 1;\n');
    expect(readFileSync(service, 'utf8')).toMatch(/\/\/ mine\n$/);
    // Deleted (or moved) by the team: not created again, as the manifest's `scaffolded` remembers.
    expect(existsSync(controller)).toBe(false);
    const manifestPath = join(dir, 'src/autogen/.svc-manifest.json');
    const manifest = readJson(manifestPath);
    expect(manifest.scaffolded).toContain('src/extensions/projects/project.controller.ts');
    // Taken out of that list, it is created again as first written.
    writeJson(manifestPath, { ...manifest, scaffolded: manifest.scaffolded.filter((path: string) => path !== 'src/extensions/projects/project.controller.ts') });
    expect(svc(dir, ['generate']).code).toBe(0);
    expect(readFileSync(controller, 'utf8')).toBe(generatedController);
  });

  it('reads another schema file with --schema', () => {
    writeJson(join(dir, 'package.json'), { name: 'gen-test', version: '0.0.0' });
    writeJson(join(dir, 'api.svcrc'), TASKS);
    const run = svc(dir, ['generate', '--schema', 'api.svcrc']);
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, 'src/autogen/tasks/task.entity.ts'))).toBe(true);
  });
});
