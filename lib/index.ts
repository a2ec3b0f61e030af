export * from './schema/model';
export * from './query/query.types';
