/**
 * `src/generated/resources/<entity>.tsx` of the admin app: the List, Show, Edit and Create views of one
 * entity, each only when its route exists. Columns, filters and inputs follow the field types.
 */
import type { ColumnModel, EntityModel, ServiceModel } from '../../lib/schema/model';
import { adminEntity, componentPrefix, humanize, inputColumns, recordRepresentation, shownColumns, tenantColumns } from './admin-entities';

/** Names imported from each module, collected while the views are written. */
class Imports {
  private readonly byModule = new Map<string, Set<string>>();

  use(module: string, name: string): string {
    const names = this.byModule.get(module) ?? new Set<string>();
    names.add(name);
    this.byModule.set(module, names);
    return name;
  }

  ra(name: string): string {
    return this.use('react-admin', name);
  }

  print(): string {
    return [...this.byModule.entries()]
      .sort(([a], [b]) => (a === 'react-admin' ? -1 : b === 'react-admin' ? 1 : a < b ? -1 : 1))
      .map(([module, names]) => `import { ${[...names].sort().join(', ')} } from '${module}';`)
      .join('\n');
  }
}

const q = (text: string): string => JSON.stringify(text);
const VALUES = '../components/values';
const ACCESS = '../components/access';

interface Context {
  readonly model: ServiceModel;
  readonly entity: EntityModel;
  readonly imports: Imports;
}

/** The admin resource a foreign key points to, if that entity has routes. */
function referenceOf(ctx: Context, column: ColumnModel): EntityModel | undefined {
  if (column.kind !== 'foreignKey' || column.relation === undefined) return undefined;
  const relation = ctx.entity.relations.find((candidate) => candidate.name === column.relation);
  return relation === undefined ? undefined : adminEntity(ctx.model, relation.target);
}

function choices(column: ColumnModel): string {
  return `[${(column.values ?? []).map((value) => `{ id: ${q(value)}, name: ${q(value)} }`).join(', ')}]`;
}

/** The autocomplete's search: a substring of the target's naming text field, or its id. */
function searchOfTarget(ctx: Context, target: EntityModel): string {
  const field = recordRepresentation(target);
  if (field === 'id') return ctx.imports.use(VALUES, 'idSearch');
  return `${ctx.imports.use(VALUES, 'textSearch')}(${q(field)})`;
}

/** A column of a list or of a show page, by type. */
function column(ctx: Context, column: ColumnModel, layout: 'table' | 'show'): string {
  const { imports } = ctx;
  const source = q(column.name);
  const label = q(humanize(column.name));
  const wrap = (field: string, extra = ''): string =>
    layout === 'table' ? `<${imports.ra('DataTable')}.Col source=${source} label=${label}${extra}>\n  ${field}\n</DataTable.Col>` : field;
  const target = referenceOf(ctx, column);
  if (target !== undefined)
    return wrap(`<${imports.ra('ReferenceField')} source=${source} reference=${q(target.route)} label=${label} link="show" />`);
  switch (column.type) {
    case 'integer':
      return layout === 'table'
        ? `<${imports.ra('DataTable')}.NumberCol source=${source} label=${label} options={{ useGrouping: false }} />`
        : `<${imports.ra('NumberField')} source=${source} label=${label} options={{ useGrouping: false }} />`;
    case 'boolean':
      return wrap(`<${imports.ra('BooleanField')} source=${source} label=${label} />`);
    case 'timestamptz':
      return wrap(`<${imports.ra('DateField')} source=${source} label=${label} showTime />`);
    case 'enum':
      return wrap(`<${imports.ra('SelectField')} source=${source} label=${label} choices={${choices(column)}} />`);
    case 'json':
      return wrap(`<${imports.use('../components/json-field', 'JsonField')} source=${source} label=${label}${layout === 'show' ? ' indent' : ''} />`, ' disableSort');
    case 'text':
      if (column.field?.isEmail) return wrap(`<${imports.ra('EmailField')} source=${source} label=${label} />`);
      return wrap(`<${imports.ra('TextField')} source=${source} label=${label} />`);
    case 'decimal':
    case 'uuid':
      return wrap(`<${imports.ra('TextField')} source=${source} label=${label} />`);
  }
}

/** The list's filters: text by substring, enums as selects, booleans, ranges of numbers and instants, references. */
interface Guarded {
  /** The fields the user must be allowed to use for the element to be offered. */
  readonly fields: readonly string[];
  readonly element: string;
}

/** `{ fields, element }` as JSX: the element, offered only when `can` allows every field. */
function guard({ fields, element }: Guarded, as: 'child' | 'item'): string {
  if (fields.length === 0) return element;
  const condition = fields.map((field) => `can(${q(field)})`).join(' && ');
  const body = element.includes('\n') ? `(\n${indent(element, 2)}\n)` : element;
  return as === 'child' ? `{${condition} && ${body}}` : `...(${condition} ? [${body}] : [])`;
}

function filters(ctx: Context): Guarded[] {
  const { imports, entity } = ctx;
  const result: Guarded[] = [];
  const tenant = tenantColumns(ctx.model, entity);
  const searchable = shownColumns(entity).filter((candidate) => candidate.field?.searchable === true);
  if (searchable.length > 0) {
    const search = `${imports.use(VALUES, 'searchOf')}([${searchable.map((candidate) => q(candidate.name)).join(', ')}])`;
    result.push({
      fields: searchable.map((candidate) => candidate.name),
      element: `<${imports.ra('SearchInput')} key="s" source="q.s" alwaysOn placeholder=${q(`Search ${searchable.map((candidate) => humanize(candidate.name).toLowerCase()).join(', ')}`)} parse={${search}.parse} format={${search}.format} />`,
    });
  }
  // Lists leave soft-deleted rows out, so their deletion time is neither filtered nor shown there.
  for (const candidate of shownColumns(entity).filter((shown) => shown.kind !== 'deletedAt' && !tenant.has(shown.name))) {
    const name = candidate.name;
    const label = humanize(name);
    const push = (...elements: string[]): void => void result.push(...elements.map((element) => ({ fields: [name], element })));
    const input = (component: string, operator: string, text: string, extra = ''): string =>
      `<${imports.ra(component)} key=${q(`${name}||${operator}`)} source=${q(`${name}||${operator}`)} label=${q(text)}${extra} />`;
    const target = referenceOf(ctx, candidate);
    if (target !== undefined) {
      push(
        `<${imports.ra('ReferenceInput')} key=${q(`${name}||$eq`)} source=${q(`${name}||$eq`)} reference=${q(target.route)} label=${q(label)}>\n  <${imports.ra('AutocompleteInput')} label=${q(label)} filterToQuery={${searchOfTarget(ctx, target)}} />\n</ReferenceInput>`,
      );
      continue;
    }
    switch (candidate.type) {
      case 'text':
        if (candidate.kind === 'field') push(input('TextInput', '$contL', `${label} contains`));
        break;
      case 'enum':
        push(input('SelectInput', '$eq', label, ` choices={${choices(candidate)}}`));
        break;
      case 'boolean':
        push(input('NullableBooleanInput', '$eq', label));
        break;
      case 'integer':
        if (candidate.kind === 'primary') break;
        push(input('NumberInput', '$gte', `${label} from`), input('NumberInput', '$lte', `${label} to`));
        break;
      case 'decimal':
        push(input('TextInput', '$gte', `${label} from`), input('TextInput', '$lte', `${label} to`));
        break;
      case 'timestamptz': {
        const parse = ` parse={${imports.use(VALUES, 'parseDateTime')}}`;
        push(input('DateTimeInput', '$gte', `${label} from`, parse), input('DateTimeInput', '$lte', `${label} to`, parse));
        break;
      }
      case 'json':
      case 'uuid':
        break;
    }
  }
  return result;
}

/** The input of a writable column, by type; `create` adds the declared default. */
function input(ctx: Context, column: ColumnModel, mode: 'create' | 'edit', requiredOnCreate: boolean): string {
  const { imports } = ctx;
  const source = q(column.name);
  const label = q(humanize(column.name));
  const mandatory = mode === 'create' ? requiredOnCreate : !column.nullable;
  const validators: string[] = mandatory ? [`${imports.ra('required')}()`] : [];
  const validate = (extra: readonly string[] = []): string => {
    const all = [...validators, ...extra];
    return all.length === 0 ? '' : all.length === 1 ? ` validate={${all[0]}}` : ` validate={[${all.join(', ')}]}`;
  };
  const declared = column.field?.default;
  const defaultValue = mode === 'create' && declared !== undefined && column.type !== 'json' ? ` defaultValue={${JSON.stringify(declared)}}` : '';
  const target = referenceOf(ctx, column);
  if (target !== undefined)
    return `<${imports.ra('ReferenceInput')} source=${source} reference=${q(target.route)}>\n  <${imports.ra('AutocompleteInput')} label=${label} filterToQuery={${searchOfTarget(ctx, target)}}${validate()} />\n</ReferenceInput>`;
  switch (column.type) {
    case 'text':
      if (column.field?.isEmail) return `<${imports.ra('TextInput')} source=${source} label=${label} type="email"${validate([`${imports.ra('email')}()`])}${defaultValue}${column.nullable ? ' resettable' : ''} />`;
      return `<${imports.ra('TextInput')} source=${source} label=${label}${validate()}${defaultValue}${column.nullable ? ' resettable' : ''} />`;
    case 'uuid':
      return `<${imports.ra('TextInput')} source=${source} label=${label}${validate()}${column.nullable ? ' resettable' : ''} />`;
    case 'integer':
      return `<${imports.ra('NumberInput')} source=${source} label=${label} step={1}${validate([imports.use(VALUES, 'integer')])}${defaultValue} />`;
    case 'decimal': {
      const precision = column.field?.precision;
      const check = precision === undefined ? [] : [`${imports.use(VALUES, 'decimal')}(${precision}, ${column.field?.scale ?? 0})`];
      return `<${imports.ra('TextInput')} source=${source} label=${label} parse={${imports.use(VALUES, 'parseDecimal')}}${validate(check)}${defaultValue}${column.nullable ? ' resettable' : ''} />`;
    }
    case 'boolean':
      return column.nullable
        ? `<${imports.ra('NullableBooleanInput')} source=${source} label=${label}${defaultValue} />`
        : `<${imports.ra('BooleanInput')} source=${source} label=${label}${defaultValue} />`;
    case 'enum':
      return `<${imports.ra('SelectInput')} source=${source} label=${label} choices={${choices(column)}}${validate()}${defaultValue} />`;
    case 'timestamptz':
      return `<${imports.ra('DateTimeInput')} source=${source} label=${label} parse={${imports.use(VALUES, 'parseDateTime')}}${validate()} />`;
    case 'json':
      return `<${imports.use('../components/json-input', 'JsonInput')} source=${source} label=${label}${mandatory ? '' : ' nullable'} />`;
  }
}

const indent = (text: string, by: number): string =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : ' '.repeat(by) + line))
    .join('\n');

/** The user entity's password fields: never returned, so not in `inputColumns`, but a form must be able to set them. */
function passwordColumns(entity: EntityModel): ColumnModel[] {
  return entity.columns.filter((column) => column.kind === 'field' && column.field?.isPassword === true && !column.readOnly);
}

/** A password input: required on create when the API requires it; on edit, left empty keeps the password. */
function passwordInput(ctx: Context, column: ColumnModel, mode: 'create' | 'edit', requiredOnCreate: boolean): string {
  const { imports } = ctx;
  const label = mode === 'edit' ? 'New password (leave empty to keep it)' : 'Password';
  const validate = mode === 'create' && requiredOnCreate ? ` validate={${imports.ra('required')}()}` : '';
  return `<${imports.ra('PasswordInput')} source=${q(column.name)} label=${q(label)} autoComplete="new-password"${validate} />`;
}

/** Whether a create body needs the column (the API's rule: not nullable, no default, not injected from the scope). */
function requiredOnCreate(entity: EntityModel, column: ColumnModel): boolean {
  const injected =
    entity.scope !== null && entity.scope.injectOnCreate && entity.scope.paths.some((path) => path.relations.length === 0 && path.field === column.name);
  return !column.nullable && column.field?.default === undefined && !injected;
}

/** Whether a column is asked about field by field: every one but the primary key, which the API always returns. */
const guardedField = (column: ColumnModel): readonly string[] => (column.kind === 'primary' ? [] : [column.name]);

/** `const can = useFieldAccess(...)` and the wait for its answer, the first lines of a view that checks fields. */
function fieldAccess(ctx: Context, action: string, columns: readonly ColumnModel[]): string[] {
  const fields = columns.flatMap(guardedField);
  return [
    `  const can = ${ctx.imports.use(ACCESS, 'useFieldAccess')}(${q(action)}, [${fields.map(q).join(', ')}]);`,
    '  if (can === undefined) return null;',
  ];
}

function listView(ctx: Context): string {
  const { entity, imports, model } = ctx;
  const name = componentPrefix(entity);
  const canDelete = entity.routes.includes('delete');
  const rowClick = entity.routes.includes('get') ? 'show' : entity.routes.includes('update') ? 'edit' : 'false';
  const filterList = filters(ctx);
  const filterConst = `${entity.propertyName}Filters`;
  const tenant = tenantColumns(model, entity);
  // Every row of a list has the caller's organization: a tenant column would repeat one value.
  const shown = shownColumns(entity).filter((candidate) => candidate.kind !== 'deletedAt' && !tenant.has(candidate.name));
  const columns = shown.map((candidate) => guard({ fields: guardedField(candidate), element: column(ctx, candidate, 'table') }, 'child'));
  const perPage = Math.min(model.api.pagination.defaultLimit, model.api.pagination.maxLimit);
  imports.ra('List');
  const parts: string[] = [];
  if (filterList.length > 0)
    parts.push(
      `const ${filterConst} = (can: (field: string) => boolean) => [\n${indent(filterList.map((filter) => guard(filter, 'item')).join(',\n'), 2)},\n];\n`,
    );
  const listProps = [filterList.length > 0 ? ` filters={${filterConst}(can)}` : '', ` perPage={${perPage}}`].join('');
  const rowClickProp = rowClick === 'false' ? ' rowClick={false}' : ` rowClick=${q(rowClick)}`;
  parts.push(
    [
      `export function ${name}List() {`,
      ...fieldAccess(ctx, 'list', shown),
      '  return (',
      `    <List${listProps}>`,
      `      <${imports.ra('DataTable')}${rowClickProp}${canDelete ? '' : ' bulkActionButtons={false}'}>`,
      indent(columns.join('\n'), 8),
      '      </DataTable>',
      '    </List>',
      '  );',
      '}',
    ].join('\n'),
  );
  return parts.join('\n');
}

function showView(ctx: Context): string {
  const { entity, imports, model } = ctx;
  const name = componentPrefix(entity);
  const shown = shownColumns(entity);
  const fields = shown.map((candidate) => guard({ fields: guardedField(candidate), element: column(ctx, candidate, 'show') }, 'child'));
  for (const relation of entity.relations) {
    if (relation.kind !== 'one-to-many') continue;
    const target = adminEntity(model, relation.target);
    if (target === undefined || !target.routes.includes('find')) continue;
    const targetCtx: Context = { model, entity: target, imports };
    const targetTenant = tenantColumns(model, target);
    const columns = shownColumns(target)
      .filter((candidate) => candidate.name !== relation.foreignKey && candidate.kind !== 'deletedAt' && !targetTenant.has(candidate.name))
      .map((candidate) => column(targetCtx, candidate, 'table'));
    const rowClick = target.routes.includes('get') ? 'show' : target.routes.includes('update') ? 'edit' : false;
    fields.push(
      [
        `<${imports.ra('ReferenceManyField')} reference=${q(target.route)} target=${q(relation.foreignKey)} label=${q(humanize(relation.name))} pagination={<${imports.ra('Pagination')} />}>`,
        `  <${imports.ra('DataTable')}${rowClick === false ? ' rowClick={false}' : ` rowClick=${q(rowClick)}`} bulkActionButtons={false}>`,
        indent(columns.join('\n'), 4),
        '  </DataTable>',
        '</ReferenceManyField>',
      ].join('\n'),
    );
  }
  return [
    // Inside <Show>, where the record is known: field rules may depend on the row.
    `function ${name}ShowLayout() {`,
    ...fieldAccess(ctx, 'show', shown),
    '  return (',
    `    <${imports.ra('SimpleShowLayout')}>`,
    indent(fields.join('\n'), 6),
    '    </SimpleShowLayout>',
    '  );',
    '}',
    '',
    `export function ${name}Show() {`,
    '  return (',
    `    <${imports.ra('Show')}>`,
    `      <${name}ShowLayout />`,
    '    </Show>',
    '  );',
    '}',
  ].join('\n');
}

function formView(ctx: Context, mode: 'create' | 'edit'): string {
  const { entity, imports, model } = ctx;
  const name = componentPrefix(entity);
  const tenant = tenantColumns(model, entity);
  const writable = inputColumns(entity).filter((candidate) => !tenant.has(candidate.name));
  const secrets = passwordColumns(entity);
  const inputs = [
    ...writable.map((candidate) =>
      guard({ fields: guardedField(candidate), element: input(ctx, candidate, mode, requiredOnCreate(entity, candidate)) }, 'child'),
    ),
    ...secrets.map((candidate) =>
      guard({ fields: guardedField(candidate), element: passwordInput(ctx, candidate, mode, requiredOnCreate(entity, candidate)) }, 'child'),
    ),
  ];
  const withoutDelete = mode === 'edit' && !entity.routes.includes('delete');
  const toolbar = withoutDelete ? ` toolbar={<${imports.ra('Toolbar')}><${imports.ra('SaveButton')} /></Toolbar>}` : '';
  const view = mode === 'edit' ? imports.ra('Edit') : imports.ra('Create');
  const redirect = entity.routes.includes('get') ? 'show' : entity.routes.includes('find') ? 'list' : false;
  const redirectProp = redirect === false ? ' redirect={false}' : ` redirect=${q(redirect)}`;
  const suffix = mode === 'edit' ? 'Edit' : 'Create';
  const form = mode === 'edit' ? `<${imports.use(ACCESS, 'RecordAccess')} action="edit">\n  <${name}EditForm />\n</RecordAccess>` : `<${name}CreateForm />`;
  // The API never returns a password, so an edit form holds none: an untouched (or cleared) one is not sent.
  const transform =
    mode === 'edit' && secrets.length > 0
      ? ` transform={${imports.use(VALUES, 'withoutEmpty')}([${secrets.map((candidate) => q(candidate.name)).join(', ')}])}`
      : '';
  return [
    `function ${name}${suffix}Form() {`,
    ...fieldAccess(ctx, mode, [...writable, ...secrets]),
    '  return (',
    `    <${imports.ra('SimpleForm')}${toolbar}>`,
    indent(inputs.join('\n'), 6),
    '    </SimpleForm>',
    '  );',
    '}',
    '',
    `export function ${name}${suffix}() {`,
    '  return (',
    `    <${view}${mode === 'edit' ? ' mutationMode="pessimistic"' : ''}${redirectProp}${transform}>`,
    indent(form, 6),
    `    </${view}>`,
    '  );',
    '}',
  ].join('\n');
}

/** The views of an entity, by route: List (find), Show (get), Edit (update), Create (create). */
export function adminViews(entity: EntityModel): Array<'List' | 'Show' | 'Edit' | 'Create'> {
  const views: Array<'List' | 'Show' | 'Edit' | 'Create'> = [];
  if (entity.routes.includes('find')) views.push('List');
  if (entity.routes.includes('get')) views.push('Show');
  if (entity.routes.includes('update')) views.push('Edit');
  if (entity.routes.includes('create')) views.push('Create');
  return views;
}

export function emitAdminResource(model: ServiceModel, entity: EntityModel): string {
  const ctx: Context = { model, entity, imports: new Imports() };
  const sections: string[] = [];
  for (const view of adminViews(entity)) {
    if (view === 'List') sections.push(listView(ctx));
    if (view === 'Show') sections.push(showView(ctx));
    if (view === 'Edit') sections.push(formView(ctx, 'edit'));
    if (view === 'Create') sections.push(formView(ctx, 'create'));
  }
  const body = sections.length === 0 ? ['export {};'] : sections;
  return `${ctx.imports.print()}${ctx.imports.print() === '' ? '' : '\n\n'}${body.join('\n\n')}\n`;
}
