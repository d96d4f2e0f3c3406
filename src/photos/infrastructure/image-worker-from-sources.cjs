// Loaded with `--require` into an image worker forked from the TypeScript sources (Jest runs
// them; image-workers.ts): compiles each .ts module it requires with the SWC options of
// jest.config.js, so the worker runs the very code under test. A build runs dist/'s JavaScript
// and never loads this file.
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
