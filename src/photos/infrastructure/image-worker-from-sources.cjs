// Loaded with `--require` into an image worker forked from the TypeScript sources (Jest runs
// them; image-workers.ts): compiles each .ts module it requires with the tests' SWC options
// (swc.options.cjs, as jest.config.js), so the worker runs the very code under test. A build
// runs dist/'s JavaScript and never loads this file.
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');
const swcOptions = require('../../../swc.options.cjs');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    ...swcOptions,
    filename,
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
