export { SvcConditionalGetInterceptor } from './conditional-get.interceptor';
export { ETAG_HEADER, formatEntityTag, isNotModified, parseEntityTags, versionOfTag } from './entity-tag';
