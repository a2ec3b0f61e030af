/** @type {import('jest').Config} */
const esmPackages = [
  '@nestjs',
  '@electric-sql',
  'magic-string',
  'ora',
  'chalk',
  'cli-spinners',
  'log-symbols',
  'is-unicode-supported',
  'strip-ansi',
  'ansi-regex',
  'string-width',
  'emoji-regex',
  'get-east-asian-width',
  'stdin-discarder',
  'is-interactive',
  'cli-cursor',
  'restore-cursor',
  'onetime',
  'mimic-function',
  'signal-exit',
  'uid',
  'file-type',
  'strtok3',
  'token-types',
  'peek-readable',
  '@tokenizer',
  'uint8array-extras',
  'load-esm',
  'yoctocolors',
  // @fastify/static (the /_docs assets on Fastify) requires content-disposition 3, an ES module.
  '@fastify',
  'content-disposition',
  // commander 15 (the svc CLI) is an ES module; test/docs parses documented commands with it.
  'commander',
];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/lib', '<rootDir>/schematics'],
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/files/'],
  transform: {
    '^.+\\.(t|j|mj)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleNameMapper: { '^@svc/nest$': '<rootDir>/lib/index.ts', '^@svc/nest/testing$': '<rootDir>/lib/testing/index.ts' },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // Tests and hooks (app start-ups above all) must hold on a loaded 2-core CI machine: at load 13-16 app starts
  // took over 60 s (issue #26). A hang still fails, after 3 minutes.
  testTimeout: 180000,
};
