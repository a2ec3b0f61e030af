import { applyDecorators, HttpStatus, type Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { NEXT_CURSOR_HEADER } from '../query/next-cursor-header';
import { TOTAL_COUNT_CAPPED_HEADER, TOTAL_COUNT_HEADER } from '../query/total-count-header';
import { ErrorEnvelopeDto } from './error-envelope.dto';
import { conditionGrammar } from './condition-grammar';

const CONDITION_GRAMMAR = conditionGrammar();

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request: invalid query string, id or body',
  401: 'Missing or invalid credentials',
  403: 'Not permitted (tenant scope, role)',
  404: 'Record not found',
  409: 'Conflicting unique value or referenced record',
  413: 'Request body too large, or more matching records than api.bulkWriteLimit',
  422: 'Constraint failure (e.g. a foreign key to a missing record)',
  429: 'Too many requests (or failed logins); see the Retry-After header',
};

/** Documents the given error statuses with the error envelope. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status] ?? 'Error', type: ErrorEnvelopeDto }),
    ),
  );
}

function arrayQuery(name: string, description: string) {
  return ApiQuery({
    name,
    required: false,
    description,
    schema: { type: 'array', items: { type: 'string' } },
    style: 'form',
    explode: true,
  });
}

/** `join` and `fields`, accepted by list and get-one. */
export function ApiSelectionQuery(): MethodDecorator {
  return applyDecorators(
    arrayQuery('join', 'Relation to load, `relation` or `relation||field1,field2`; nested `a.b`. Repeat or index (`join[0]`) for several.'),
    ApiQuery({ name: 'fields', required: false, type: String, description: 'Comma-separated fields to return (the id is always returned).' }),
  );
}

/**
 * `GET /<entities>/changes`: the view's query (filter, or, s, fields, to-one join, include_deleted), the resume
 * point, and the `text/event-stream` answer.
 */
export function ApiChangeFeed(model: Type<unknown>): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model),
    arrayQuery('filter', `Condition of the view, all AND-ed: ${CONDITION_GRAMMAR}`),
    arrayQuery('or', 'Alternative condition of the view, as on the list.'),
    ApiQuery({ name: 's', required: false, type: String, description: 'Search as JSON, AND-ed with filter/or, as on the list.' }),
    ApiSelectionQuery(),
    ApiQuery({
      name: 'lastEventId',
      required: false,
      schema: { type: 'string', format: 'uuid' },
      description: 'Resume after this event (the `Last-Event-ID` header, which EventSource sends on reconnect, takes precedence).',
    }),
    ApiResponse({
      status: 200,
      description:
        'Server-Sent Events, one per change in the view, each with the outbox event id as `id`: `upsert` (data: the record as `GET /:id` ' +
        'answers it with the same `fields` and `join`), `remove` (data: `{ "id": ... }`), `reset` (refetch the list: what was missed is no ' +
        'longer kept, or the client read too slowly). Comment lines keep an idle stream open. See docs/realtime.md.',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    }),
    ApiResponse({ status: 429, description: 'More open streams than `api.realtime.maxStreamsPerCredential`', type: ErrorEnvelopeDto }),
  );
}

/** The list query-string contract: filter, or, s, sort, join, fields, pagination. */
export function ApiListQuery(): MethodDecorator {
  return applyDecorators(
    arrayQuery('filter', `Condition, all AND-ed: ${CONDITION_GRAMMAR} Indexed \`filter[0]\`, \`filter[]\` and repeated \`filter\` are accepted.`),
    arrayQuery('or', `Alternative condition: ${CONDITION_GRAMMAR} With \`filter\`: (all filters) OR (all ors).`),
    ApiQuery({
      name: 's',
      required: false,
      type: String,
      description: 'Search as JSON, AND-ed with filter/or: `{"name":{"$contL":"x"}}`, `{"$or":[{...},{...}]}`, `{"$not":{...}}`.',
    }),
    arrayQuery('sort', 'Sort `field,ASC` or `field,DESC`; several apply in order.'),
    ApiSelectionQuery(),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1 }, description: 'Most records to return (alias `per_page`); default and maximum are set in `.svcrc` `api.pagination`.' }),
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1 }, description: 'Page number, from 1; asks for the page object.' }),
    ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0 }, description: 'Rows to skip; takes precedence over `page`; asks for the page object.' }),
    ApiQuery({
      name: 'count',
      required: false,
      schema: { type: 'string', enum: ['exact', 'estimated', 'none'] },
      description:
        'How `total` is computed: `exact` (a COUNT), `estimated` (the planner estimate, exact below `api.pagination.estimatedCountThreshold`), ' +
        '`none` (no count; `total` and `pageCount` are null, no `X-Total-Count`). Default `api.pagination.count`, else `exact`.',
    }),
    ApiQuery({
      name: 'cursor',
      required: false,
      type: String,
      description:
        '`nextCursor` of a previous answer (or its `X-Next-Cursor` header): the rows after it, with the same `filter`, `or`, `s`, `sort` ' +
        'and `include_deleted` (else 400). Not with `page` or `offset`. Answers the page object, with `page` null.',
    }),
  );
}

/**
 * The 200 answer of a list over `model`, in its two shapes: the page object `{ data, count,
 * total, page, pageCount, nextCursor }` when the query has `page`, `offset` or `cursor` (or `.svcrc` sets
 * `api.pagination.alwaysPaginate`), a plain array otherwise; `X-Total-Count` and `X-Next-Cursor` on both.
 */
export function ApiPaginatedResponse(model: Type<unknown>): MethodDecorator {
  const record = { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description:
        'A page object when the query has `page`, `offset` or `cursor`, or when `.svcrc` sets `api.pagination.alwaysPaginate`; ' +
        'otherwise a plain array of at most `limit` records (`api.pagination.maxLimit` when `limit` is absent), as @nestjsx/crud answers. ' +
        `The \`${TOTAL_COUNT_HEADER}\` header gives the number of matching records (absent with \`count=none\`): more than the array holds means rows were cut off. ` +
        `When more rows follow, \`${NEXT_CURSOR_HEADER}\` (and the page object's \`nextCursor\`) is the \`cursor\` of the next page.`,
      headers: {
        [TOTAL_COUNT_HEADER]: { description: 'Records matching the query (absent with `count=none`)', schema: { type: 'integer', minimum: 0 } },
        [TOTAL_COUNT_CAPPED_HEADER]: {
          description: `\`true\` when \`${TOTAL_COUNT_HEADER}\` is capped (\`count=estimated\` for a caller the tenant scope restricts): it then means "at least this many"`,
          schema: { type: 'string', enum: ['true'] },
        },
        [NEXT_CURSOR_HEADER]: { description: 'The `cursor` of the next page; absent on the last page', schema: { type: 'string' } },
      },
      schema: {
        oneOf: [
          {
            title: 'Page',
            description: 'With `page`, `offset` or `cursor` (or `alwaysPaginate`)',
            type: 'object',
            required: ['data', 'count', 'total', 'page', 'pageCount', 'nextCursor'],
            properties: {
              data: { type: 'array', items: record },
              count: { type: 'integer', description: 'Records in this page' },
              total: {
                type: 'integer',
                nullable: true,
                description: 'Records matching the query (estimated, or capped, with `count=estimated`); null with `count=none`',
              },
              totalCapped: {
                type: 'boolean',
                enum: [true],
                description: 'Present only when `total` is capped at `api.pagination.estimatedCountThreshold`: "at least this many"',
              },
              page: { type: 'integer', nullable: true, description: 'Current page, from 1; null on a page reached by `cursor`' },
              pageCount: { type: 'integer', nullable: true, description: 'Number of pages; null with `count=none`' },
              nextCursor: { type: 'string', nullable: true, description: 'The `cursor` of the next page; null when no row follows' },
            },
          },
          { title: 'Records', description: 'Without `page`, `offset` and `cursor`', type: 'array', items: record },
        ],
      },
    }),
  );
}

/** The body of `POST /<entities>/bulk`: `{ "bulk": [ ... ] }`. */
export function ApiBulkBody(dto: Type<unknown>): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(dto),
    ApiBody({
      schema: {
        type: 'object',
        required: ['bulk'],
        properties: { bulk: { type: 'array', minItems: 1, items: { $ref: getSchemaPath(dto) } } },
      },
    }),
  );
}

/** `onConflict` of `POST /<entities>/bulk`: insert or update by a unique field. */
export function ApiUpsertQuery(): MethodDecorator {
  return ApiQuery({
    name: 'onConflict',
    required: false,
    type: String,
    description:
      'Upsert by this unique field: a record whose value already exists updates that record (only the fields it gives), the others are inserted; ' +
      'one transaction. Every record must give the field, each value once. A match you may not update (another tenant\'s, or deleted) answers 409 and nothing is written.',
  });
}

/** The query of the by-filter writes: `filter`, `or` and `s` (at least one condition), and `return`. */
export function ApiFilterWriteQuery(): MethodDecorator {
  return applyDecorators(
    arrayQuery('filter', `Condition, all AND-ed, as in the list: ${CONDITION_GRAMMAR}`),
    arrayQuery('or', 'Alternative condition, as in the list. At least one filter, or or s condition is required.'),
    ApiQuery({ name: 's', required: false, type: String, description: 'Search as JSON, as in the list.' }),
    ApiQuery({
      name: 'return',
      required: false,
      enum: ['count', 'rows'],
      description: '`rows` answers the changed records in `data` besides `affected`; default `count`.',
    }),
  );
}

/** The 200 answer of a by-filter write: `{ affected, data? }`. */
export function ApiFilterWriteResponse(model: Type<unknown>): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description: 'The number of records changed; with `return=rows`, the records as written (deleted ones as they were removed).',
      schema: {
        type: 'object',
        required: ['affected'],
        properties: {
          affected: { type: 'integer', minimum: 0, description: 'Records changed' },
          data: { type: 'array', items: { $ref: getSchemaPath(model) }, description: 'With `return=rows` only' },
        },
      },
    }),
  );
}

export const COMMON_ERROR_STATUSES = [HttpStatus.BAD_REQUEST, HttpStatus.UNAUTHORIZED, HttpStatus.FORBIDDEN] as const;
