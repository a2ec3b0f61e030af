/**
 * Library imports of one generated file, aliased where a name the file declares or imports
 * locally (an entity called `Post`, `Entity` or `Repository`) would clash with a library export:
 * `import { Post as NestPost } from '@nestjs/common'`. Names that clash with nothing stay plain,
 * so ordinary entities read exactly as before.
 */
import type { Doc } from '../../utils/doc';
import { importDecl, sortNames } from '../../utils/ts-docs';

/** Prefix of an aliased import, per library. */
const ALIAS_PREFIX: Readonly<Record<string, string>> = {
  '@nestjs/common': 'Nest',
  '@nestjs/swagger': 'Swagger',
  '@nestjs/typeorm': 'NestTypeOrm',
  '@svc/nest': 'Svc',
  typeorm: 'TypeOrm',
  'class-validator': 'Validator',
  'class-transformer': 'Transformer',
};

export class ImportScope {
  private readonly used = new Map<string, Map<string, { local: string; typeOnly: boolean }>>();

  /** `locals`: names the file declares or imports from the application itself. */
  constructor(private readonly locals: ReadonlySet<string>) {}

  /** The identifier to write for `name` from `library`; records the import. */
  ref(library: string, name: string, typeOnly = false): string {
    let names = this.used.get(library);
    if (names === undefined) this.used.set(library, (names = new Map()));
    const known = names.get(name);
    if (known !== undefined) {
      if (!typeOnly) known.typeOnly = false;
      return known.local;
    }
    let local = name;
    while (this.locals.has(local)) local = `${ALIAS_PREFIX[library] ?? 'Lib'}${local}`;
    names.set(name, { local, typeOnly });
    return local;
  }

  /** `ref()` of a type-only import. */
  type(library: string, name: string): string {
    return this.ref(library, name, true);
  }

  /** The import declaration of `library`, or nothing when no name of it was used. */
  declaration(library: string): Doc[] {
    const names = this.used.get(library);
    if (names === undefined || names.size === 0) return [];
    const specifiers = [...names].map(([name, { local, typeOnly }]) => `${typeOnly ? 'type ' : ''}${local === name ? name : `${name} as ${local}`}`);
    return [importDecl(sortNames(specifiers), library)];
  }
}
