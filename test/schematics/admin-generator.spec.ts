/**
 * `svc generate --admin admin`, run as a user types it in a copy of the lending-library sample: the files it
 * writes, a deterministic second run, the generation gap (team files survive, generated files are refreshed,
 * an override replaces a generated view), an entity added to `.svcrc`, and a generated app that type-checks
 * and builds with Vite using this repository's node_modules.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseGenerated } from '../../schematics/utils/generated-file';
import { assertBuilt, ROOT, svc, tempDir } from '../cli/generate.helpers';

const SAMPLE_SVCRC = join(ROOT, 'sample', '01-lending-library', '.svcrc');

const GENERATED = [
  'src/generated/schema.ts',
  'src/generated/admin.tsx',
  'src/generated/resources/branch.tsx',
  'src/generated/resources/member.tsx',
  'src/generated/resources/book-copy.tsx',
  'src/generated/resources/loan.tsx',
  'src/generated/components/access.tsx',
  'src/generated/components/json-field.tsx',
  'src/generated/components/json-input.tsx',
  'src/generated/components/values.ts',
  'src/generated/providers/index.ts',
];
const TEAM = [
  'package.json',
  'vite.config.ts',
  'tsconfig.json',
  'index.html',
  'src/main.tsx',
  'src/App.tsx',
  'src/resources/branch.tsx',
  'src/resources/member.tsx',
  'src/resources/book-copy.tsx',
  'src/resources/loan.tsx',
];

/** Every file of the app (no build output), path → content. */
function snapshot(app: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === 'dist' || entry.name === 'node_modules') continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(app, path), readFileSync(path, 'utf8'));
    }
  };
  walk(app);
  return files;
}

function editSvcrc(project: string, edit: (svcrc: { entities: Array<Record<string, unknown>>; relationships: unknown[] }) => void): void {
  const file = join(project, '.svcrc');
  const svcrc = JSON.parse(readFileSync(file, 'utf8')) as { entities: Array<Record<string, unknown>>; relationships: unknown[] };
  edit(svcrc);
  writeFileSync(file, `${JSON.stringify(svcrc, null, 2)}\n`);
}

describe('svc generate --admin', () => {
  let project: string;
  let app: string;
  const read = (path: string): string => readFileSync(join(app, path), 'utf8');

  beforeAll(() => {
    assertBuilt();
    project = tempDir('admin');
    copyFileSync(SAMPLE_SVCRC, join(project, '.svcrc'));
    // The app resolves react-admin, vite and typescript by walking up, as it would under this repository.
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
    app = join(project, 'admin');
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('writes the generated files with a header and the team files without one, for every entity with routes', () => {
    const run = svc(project, ['generate', '--admin', 'admin']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    for (const path of GENERATED) {
      const parsed = parseGenerated(read(path));
      expect({ path, intact: parsed !== null && parsed.contentHash === parsed.actualHash }).toEqual({ path, intact: true });
      expect(run.stdout).toContain(`CREATE admin/${path}`);
    }
    for (const path of TEAM) expect({ path, header: parseGenerated(read(path)) }).toEqual({ path, header: null });
    // AuditEvent has no HTTP routes: no views of it.
    expect(existsSync(join(app, 'src/generated/resources/audit-event.tsx'))).toBe(false);
    expect(read('vite.config.ts')).toContain("base: './'");
    const admin = read('src/generated/admin.tsx');
    expect(admin).toContain("from '../resources/book-copy'");
    expect(admin).toContain('<Resource name="loans" list={LoanList} show={LoanShow} edit={LoanEdit} create={LoanCreate} recordRepresentation="id" options={{ label: "Loans" }}');
    // Loan has no delete route: no bulk delete, no delete button.
    const loan = read('src/generated/resources/loan.tsx');
    expect(loan).toContain('bulkActionButtons={false}');
    expect(loan).toContain('toolbar={<Toolbar><SaveButton /></Toolbar>}');
    const bookCopy = read('src/generated/resources/book-copy.tsx');
    expect(bookCopy).toContain('<List filters={bookCopyFilters(can)} perPage={25}>\n      <DataTable rowClick="show">\n');
    // Field rules: each column and input only when canAccess allows its field; an edit form only for a record the user may edit.
    expect(bookCopy).toContain('{can("title") && <TextInput source="title" label="Title" validate={required()} />}');
    expect(bookCopy).toContain('<RecordAccess action="edit">\n        <BookCopyEditForm />\n      </RecordAccess>');
    // Passwords are never shown; a form sets one (required on create when the API requires it, which the sample's
    // nullable field is not; not sent from an edit when left empty).
    const member = read('src/generated/resources/member.tsx');
    expect(member).toContain('{can("passwordHash") && <PasswordInput source="passwordHash" label="Password" autoComplete="new-password" />}');
    expect(member).toContain('{can("passwordHash") && <PasswordInput source="passwordHash" label="New password (leave empty to keep it)" autoComplete="new-password" />}');
    expect(member).toContain('<Edit mutationMode="pessimistic" redirect="show" transform={withoutEmpty(["passwordHash"])}>');
    // Two field checks, two inputs, the edit's transform; nothing else (no column, no filter, no Show field).
    expect(member.match(/passwordHash/g)).toHaveLength(7);
    expect(read('src/generated/schema.ts')).not.toContain('passwordHash');
  });

  it('changes nothing on a second run', () => {
    const before = snapshot(app);
    const run = svc(project, ['generate', '--admin', 'admin']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Nothing to change');
    expect(snapshot(app)).toEqual(before);
  });

  it('keeps the team files, refreshes the generated ones and adds an entity that appears in .svcrc', () => {
    const appTsx = `${read('src/App.tsx')}// team edit of App\n`;
    writeFileSync(join(app, 'src/App.tsx'), appTsx);
    const override = [
      "export * from '../generated/resources/branch';",
      '',
      'export function BranchList() {',
      '  return <p>team-branch-list-marker</p>;',
      '}',
      '',
    ].join('\n');
    writeFileSync(join(app, 'src/resources/branch.tsx'), override);
    const packageJson = read('package.json').replace('"private": true', '"private": true,\n  "description": "team edit"');
    writeFileSync(join(app, 'package.json'), packageJson);
    editSvcrc(project, (svcrc) => {
      svcrc.entities.splice(1, 0, {
        name: 'Shelf',
        fields: [
          { name: 'label', type: 'text', searchable: true },
          { name: 'capacity', type: 'integer' },
        ],
      });
      const branch = svcrc.entities.find((entity) => entity.name === 'Branch') as { fields: unknown[] };
      branch.fields.push({ name: 'phone', type: 'text', nullable: true });
    });

    const run = svc(project, ['generate', '--admin', 'admin']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(read('src/App.tsx')).toBe(appTsx);
    expect(read('src/resources/branch.tsx')).toBe(override);
    expect(read('package.json')).toBe(packageJson);
    expect(run.stdout).toContain('UPDATE admin/src/generated/resources/branch.tsx');
    expect(read('src/generated/resources/branch.tsx')).toContain('<TextInput source="phone" label="Phone" resettable />');
    expect(run.stdout).toContain('CREATE admin/src/generated/resources/shelf.tsx');
    expect(run.stdout).toContain('CREATE admin/src/resources/shelf.tsx');
    expect(read('src/generated/admin.tsx')).toContain('<Resource name="shelves"');
    expect(read('src/generated/resources/shelf.tsx')).toContain('source="q.s"');
    expect(read('src/generated/schema.ts')).toContain('"name": "Shelf"');
  });

  it('type-checks without a message and builds with Vite, the team override in place of the generated view', () => {
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', app], { encoding: 'utf8' });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
    // jest sets NODE_ENV=test, which would make Vite bundle React's development build.
    const env = { ...process.env, NODE_ENV: 'production' };
    const vite = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: app,
      env,
      encoding: 'utf8',
    });
    expect(`${vite.stdout}${vite.stderr}`).toBe('');
    expect(vite.status).toBe(0);
    const html = read('dist/index.html');
    expect(html).toMatch(/src="\.\/assets\/index-[\w-]+\.js"/);
    const bundle = readdirSync(join(app, 'dist/assets')).find((name) => name.endsWith('.js')) ?? '';
    const code = read(`dist/assets/${bundle}`);
    // Searched rather than compared, so that a failure does not print the 2 MB bundle.
    expect({ teamOverrideBundled: code.includes('team-branch-list-marker') }).toEqual({ teamOverrideBundled: true });
    // The generated list of Shelf, which no override replaces, is in the bundle too.
    expect({ generatedShelfListBundled: code.includes('Capacity from') }).toEqual({ generatedShelfListBundled: true });
  }, 90_000);

  it('refuses a generated file edited by hand unless --force, and deletes the files of an entity that left .svcrc', () => {
    const shelf = 'src/generated/resources/shelf.tsx';
    writeFileSync(join(app, shelf), `${read(shelf)}// hand edit\n`);
    const refused = svc(project, ['generate', '--admin', 'admin']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('admin/src/generated/resources/shelf.tsx was edited by hand');
    expect(read(shelf)).toContain('// hand edit');

    editSvcrc(project, (svcrc) => {
      svcrc.entities = svcrc.entities.filter((entity) => entity.name !== 'Shelf');
    });
    const again = svc(project, ['generate', '--admin', 'admin']);
    expect(again.code).toBe(1);
    const forced = svc(project, ['generate', '--admin', 'admin', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('DELETE admin/src/generated/resources/shelf.tsx');
    expect(existsSync(join(app, shelf))).toBe(false);
    expect(forced.stdout).toContain('admin/src/resources/shelf.tsx is not an entity of .svcrc any more');
    expect(read('src/generated/admin.tsx')).not.toContain('shelves');
  });
});

describe('svc generate --admin in a project made by nest new', () => {
  let project: string;
  // nest new's tsconfig.json: no "include", so it takes every TypeScript file under the project, admin/ too.
  const NEST_NEW_TSCONFIG = {
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2023', outDir: './dist', rootDir: '.', strict: true, skipLibCheck: true },
  };
  const listed = (): string[] => {
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--listFilesOnly'], { cwd: project, encoding: 'utf8' });
    return tsc.stdout.split('\n').filter((line) => line !== '' && !line.includes('/node_modules/'));
  };

  beforeAll(() => {
    assertBuilt();
    project = tempDir('admin-nest-new');
    copyFileSync(SAMPLE_SVCRC, join(project, '.svcrc'));
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
    writeFileSync(join(project, 'tsconfig.json'), `${JSON.stringify(NEST_NEW_TSCONFIG, null, 2)}\n`);
    writeFileSync(join(project, 'main.ts'), 'export {};\n');
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it("excludes the admin app from the server's tsconfig.json, which then compiles only the server's files", () => {
    const run = svc(project, ['generate', '--admin', 'admin']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('UPDATE tsconfig.json (exclude admin');
    expect(JSON.parse(readFileSync(join(project, 'tsconfig.json'), 'utf8'))).toEqual({ ...NEST_NEW_TSCONFIG, exclude: ['node_modules', './dist', 'dist-test', 'admin'] });
    // The output of an earlier `npm run test:smoke` (tsc --outDir dist-test) stays out, as without "exclude".
    mkdirSync(join(project, 'dist-test'));
    writeFileSync(join(project, 'dist-test', 'main.d.ts'), 'export {};\n');
    expect(listed()).toEqual([join(project, 'main.ts')]);
    const again = svc(project, ['generate', '--admin', 'admin']);
    expect(again.stdout).toContain('✔ Nothing to change');
  });
});
