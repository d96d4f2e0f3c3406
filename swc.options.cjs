// How the tests compile TypeScript (and the ESM-only NestJS 12 packages) to CommonJS with SWC:
// read by jest.config.js and by the image workers forked from the sources under Jest
// (src/photos/infrastructure/image-worker-from-sources.cjs), so both run the same code.
module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};
