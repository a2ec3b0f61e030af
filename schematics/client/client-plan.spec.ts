import type { ServiceModel } from '../../lib/schema/model';
import { parseSvcrcValue } from '../../lib/schema/parse-svcrc';
import { parseGenerated } from '../utils/generated-file';
import { emitClient } from './client-plan';

function model(raw: Record<string, unknown>): ServiceModel {
  const result = parseSvcrcValue({ version: 2, language: 'typescript', rootFolder: 'src', ...raw });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.model;
}

const library = model({
  idType: 'uuid',
  entities: [
    {
      name: 'Member',
      softDelete: true,
      fields: [
        { name: 'email', type: 'text', is_email: true, unique: true },
        { name: 'password', type: 'text', is_password: true },
        { name: 'tier', type: 'enum', values: ['free', 'gold'], default: 'free' },
      ],
    },
    { name: 'Loan', routes: { delete: false, replace: false }, fields: [{ name: 'due', type: 'timestamptz' }] },
    { name: 'AuditEntry', http: false, fields: [{ name: 'what', type: 'text' }] },
  ],
  relationships: [{ from: 'Loan', to: 'Member', type: 'ManyToOne', nullable: false }],
});

describe('emitClient', () => {
  it('is deterministic and carries an intact generated header', () => {
    const text = emitClient(library);
    expect(emitClient(library)).toBe(text);
    const parsed = parseGenerated(text);
    expect(parsed).not.toBeNull();
    expect(parsed!.contentHash).toBe(parsed!.actualHash);
  });

  it('types uuid ids as strings, keeps password fields out of records and queries but in create bodies', () => {
    const text = emitClient(library);
    expect(text).toContain('export interface Member {\n  id: string;\n  email: string;\n  tier: MemberTier;\n  deleted_at: string | null;');
    expect(text).toContain('export interface CreateMember {\n  email: string;\n  password: string;\n  tier?: MemberTier;\n}');
    expect(text).toContain("export type MemberTier = 'free' | 'gold';");
    expect(text).not.toMatch(/password: SvcFieldSpec|'password'/);
    expect(text).toContain('SvcResource<Member, CreateMember, UpdateMember, UpdateMember, string, MemberQueryMeta>');
  });

  it('gives each resource only the routes its entity serves, and skips entities without HTTP routes', () => {
    const text = emitClient(library);
    expect(text).toMatch(
      /export type MemberResource = Pick<[^>]*>,\s*'query' \| 'list' \| 'page' \| 'get' \| 'create' \| 'createMany' \| 'update' \| 'replace' \| 'delete' \| 'recover'/,
    );
    expect(text).toMatch(
      /export type LoanResource = Pick<[^>]*>,\s*'query' \| 'list' \| 'page' \| 'get' \| 'create' \| 'createMany' \| 'update'\s*>/,
    );
    expect(text).not.toContain('AuditEntry');
    expect(text).toContain('member?: Member;');
    expect(text).toContain("'member.email': SvcFieldSpec<string, 'text'>;");
  });

  it('types eager relations as always present, with their fields queryable, and PUT bodies after api.put', () => {
    const merged = emitClient(
      model({
        entities: [
          { name: 'Author', fields: [{ name: 'name', type: 'text' }] },
          { name: 'Book', eagerJoins: ['author'], fields: [{ name: 'title', type: 'text' }] },
        ],
        relationships: [{ from: 'Book', to: 'Author', type: 'ManyToOne' }],
      }),
    );
    expect(merged).toContain('  /** Joined on every read (eagerJoins). */\n  author: Author | null;');
    expect(merged).toContain("'author.name': SvcFieldSpec<string, 'text'>;");
    expect(merged).toContain('SvcResource<Book, CreateBook, UpdateBook, UpdateBook, number, BookQueryMeta>');
    const replacing = emitClient(
      model({ api: { put: 'replace' }, entities: [{ name: 'Book', fields: [{ name: 'title', type: 'text' }] }] }),
    );
    expect(replacing).toContain('SvcResource<Book, CreateBook, UpdateBook, CreateBook, number, BookQueryMeta>');
  });

  it('refuses an entity whose generated names clash with the client runtime', () => {
    const clashing = model({ entities: [{ name: 'SvcPage', fields: [{ name: 'n', type: 'integer' }] }] });
    expect(() => emitClient(clashing)).toThrow('entity "SvcPage" and the client runtime both declare "SvcPage"');
  });
});
