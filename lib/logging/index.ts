export { DEFAULT_LOG_LEVEL, InvalidLogLevelError, LOG_LEVEL_NAMES, svcLogLevels, type LogLevelName } from './log-levels';
export { LOGGED_QUERY_PARAMETERS, redactUrl } from './redact-url';
export { createRequestLogger, type RequestLoggerMiddleware } from './request-logger';
