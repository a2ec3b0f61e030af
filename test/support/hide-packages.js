// Preloaded with `node --require`: makes the packages named in HIDE_PACKAGES (comma-separated)
// unresolvable, as if they were not installed, to test the behaviour without them.
'use strict';
const Module = require('node:module');
const hidden = new Set((process.env.HIDE_PACKAGES || '').split(',').filter(Boolean));
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hidden.has(request)) {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
