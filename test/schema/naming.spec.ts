import {
  pluralize,
  toCamelCase,
  toKebabCase,
  toPascalCase,
  toRouteName,
  toSnakeCase,
  toTableName,
} from '../../lib/schema';

describe('naming', () => {
  it.each([
    ['Task', 'tasks', 'tasks'],
    ['LoanItem', 'loan-items', 'loan_items'],
    ['Category', 'categories', 'categories'],
    ['Person', 'people', 'people'],
    ['AuditEntry', 'audit-entries', 'audit_entries'],
    ['Status', 'statuses', 'statuses'],
    ['HTTPRequest', 'http-requests', 'http_requests'],
    ['Task2', 'task2s', 'task2s'],
  ])('%s → route %s, table %s', (name, route, table) => {
    expect(toRouteName(name)).toBe(route);
    expect(toTableName(name)).toBe(table);
  });

  it('pluralizes the last word only, keeping case', () => {
    expect(pluralize('SalesPerson')).toBe('SalesPeople');
    expect(pluralize('loanItem')).toBe('loanItems');
    expect(pluralize('TaskCategory')).toBe('TaskCategories');
  });

  it.each([
    ['LoanItem', 'loanItem', 'LoanItem', 'loan-item', 'loan_item'],
    ['loan_item', 'loanItem', 'LoanItem', 'loan-item', 'loan_item'],
    ['loan-items', 'loanItems', 'LoanItems', 'loan-items', 'loan_items'],
    ['HTTPRequest', 'httpRequest', 'HttpRequest', 'http-request', 'http_request'],
    ['organizationId', 'organizationId', 'OrganizationId', 'organization-id', 'organization_id'],
  ])('%s → %s, %s, %s, %s', (input, camel, pascal, kebab, snake) => {
    expect([toCamelCase(input), toPascalCase(input), toKebabCase(input), toSnakeCase(input)]).toEqual([
      camel,
      pascal,
      kebab,
      snake,
    ]);
  });
});
