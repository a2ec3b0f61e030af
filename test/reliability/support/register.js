// Require hook for child processes of the reliability tests: compiles TypeScript with
// @swc/core as jest does (same options) and resolves `@svc/nest` to lib/, so a server
// process runs the current sources without `npm run build` (dist/ belongs to others).
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '..', '..', '..');
const libIndex = path.join(root, 'lib', 'index.ts');

const originalResolve = Module._resolveFilename;
Module._resolveFilename = function resolve(request, parent, ...rest) {
  if (request === '@svc/nest') return libIndex;
  return originalResolve.call(this, request, parent, ...rest);
};

Module._extensions['.ts'] = function compile(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, {
    filename,
    sourceMaps: 'inline',
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
