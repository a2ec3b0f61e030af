/**
 * `src/generated/resources/<entity>.tsx` of the admin app: the List, Show, Edit and Create views of one
 * entity, each only when its route exists. Columns, filters and inputs follow the field types.
 */
import type { ColumnModel, EntityModel, ServiceModel } from '../../lib/schema/model';
import { adminEntity, componentPrefix, humanize, inputColumns, recordRepresentation, shownColumns } from './admin-entities';

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
function filters(ctx: Context): string[] {
  const { imports, entity } = ctx;
  const result: string[] = [];
  const searchable = shownColumns(entity).filter((candidate) => candidate.field?.searchable === true);
  if (searchable.length > 0) {
    const search = `${imports.use(VALUES, 'searchOf')}([${searchable.map((candidate) => q(candidate.name)).join(', ')}])`;
    result.push(
      `<${imports.ra('SearchInput')} key="s" source="q.s" alwaysOn placeholder=${q(`Search ${searchable.map((candidate) => humanize(candidate.name).toLowerCase()).join(', ')}`)} parse={${search}.parse} format={${search}.format} />`,
    );
  }
  // Lists leave soft-deleted rows out, so their deletion time is neither filtered nor shown there.
  for (const candidate of shownColumns(entity).filter((shown) => shown.kind !== 'deletedAt')) {
    const name = candidate.name;
    const label = humanize(name);
    const input = (component: string, operator: string, text: string, extra = ''): string =>
      `<${imports.ra(component)} key=${q(`${name}||${operator}`)} source=${q(`${name}||${operator}`)} label=${q(text)}${extra} />`;
    const target = referenceOf(ctx, candidate);
    if (target !== undefined) {
      result.push(
        `<${imports.ra('ReferenceInput')} key=${q(`${name}||$eq`)} source=${q(`${name}||$eq`)} reference=${q(target.route)} label=${q(label)}>\n  <${imports.ra('AutocompleteInput')} label=${q(label)} filterToQuery={${searchOfTarget(ctx, target)}} />\n</ReferenceInput>`,
      );
      continue;
    }
    switch (candidate.type) {
      case 'text':
        if (candidate.kind === 'field') result.push(input('TextInput', '$contL', `${label} contains`));
        break;
      case 'enum':
        result.push(input('SelectInput', '$eq', label, ` choices={${choices(candidate)}}`));
        break;
      case 'boolean':
        result.push(input('NullableBooleanInput', '$eq', label));
        break;
      case 'integer':
        if (candidate.kind === 'primary') break;
        result.push(input('NumberInput', '$gte', `${label} from`), input('NumberInput', '$lte', `${label} to`));
        break;
      case 'decimal':
        result.push(input('TextInput', '$gte', `${label} from`), input('TextInput', '$lte', `${label} to`));
        break;
      case 'timestamptz': {
        const parse = ` parse={${imports.use(VALUES, 'parseDateTime')}}`;
        result.push(input('DateTimeInput', '$gte', `${label} from`, parse), input('DateTimeInput', '$lte', `${label} to`, parse));
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

/** Whether a create body needs the column (the API's rule: not nullable, no default, not injected from the scope). */
function requiredOnCreate(entity: EntityModel, column: ColumnModel): boolean {
  const injected =
    entity.scope !== null && entity.scope.injectOnCreate && entity.scope.paths.some((path) => path.relations.length === 0 && path.field === column.name);
  return !column.nullable && column.field?.default === undefined && !injected;
}

function listView(ctx: Context): string {
  const { entity, imports, model } = ctx;
  const name = componentPrefix(entity);
  const canDelete = entity.routes.includes('delete');
  const rowClick = entity.routes.includes('get') ? 'show' : entity.routes.includes('update') ? 'edit' : 'false';
  const filterList = filters(ctx);
  const filterConst = `${entity.propertyName}Filters`;
  const columns = shownColumns(entity)
    .filter((candidate) => candidate.kind !== 'deletedAt')
    .map((candidate) => column(ctx, candidate, 'table'));
  const perPage = Math.min(model.api.pagination.defaultLimit, model.api.pagination.maxLimit);
  imports.ra('List');
  const parts: string[] = [];
  if (filterList.length > 0) parts.push(`const ${filterConst} = [\n${indent(filterList.join(',\n'), 2)},\n];\n`);
  const listProps = [filterList.length > 0 ? ` filters={${filterConst}}` : '', ` perPage={${perPage}}`].join('');
  const rowClickProp = rowClick === 'false' ? ' rowClick={false}' : ` rowClick=${q(rowClick)}`;
  parts.push(
    [
      `export function ${name}List() {`,
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
  const fields = shownColumns(entity).map((candidate) => column(ctx, candidate, 'show'));
  for (const relation of entity.relations) {
    if (relation.kind !== 'one-to-many') continue;
    const target = adminEntity(model, relation.target);
    if (target === undefined || !target.routes.includes('find')) continue;
    const targetCtx: Context = { model, entity: target, imports };
    const columns = shownColumns(target)
      .filter((candidate) => candidate.name !== relation.foreignKey && candidate.kind !== 'deletedAt')
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
    `export function ${name}Show() {`,
    '  return (',
    `    <${imports.ra('Show')}>`,
    `      <${imports.ra('SimpleShowLayout')}>`,
    indent(fields.join('\n'), 8),
    '      </SimpleShowLayout>',
    '    </Show>',
    '  );',
    '}',
  ].join('\n');
}

function formView(ctx: Context, mode: 'create' | 'edit'): string {
  const { entity, imports } = ctx;
  const name = componentPrefix(entity);
  const inputs = inputColumns(entity).map((candidate) => input(ctx, candidate, mode, requiredOnCreate(entity, candidate)));
  const withoutDelete = mode === 'edit' && !entity.routes.includes('delete');
  const toolbar = withoutDelete ? ` toolbar={<${imports.ra('Toolbar')}><${imports.ra('SaveButton')} /></Toolbar>}` : '';
  const view = mode === 'edit' ? imports.ra('Edit') : imports.ra('Create');
  const redirect = entity.routes.includes('get') ? 'show' : entity.routes.includes('find') ? 'list' : false;
  const redirectProp = redirect === false ? ' redirect={false}' : ` redirect=${q(redirect)}`;
  return [
    `export function ${name}${mode === 'edit' ? 'Edit' : 'Create'}() {`,
    '  return (',
    `    <${view}${mode === 'edit' ? ' mutationMode="pessimistic"' : ''}${redirectProp}>`,
    `      <${imports.ra('SimpleForm')}${toolbar}>`,
    indent(inputs.join('\n'), 8),
    '      </SimpleForm>',
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
