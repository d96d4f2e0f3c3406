import { registerHooks } from 'node:module';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Resolves the libraries' path aliases (`@pet-adoption/api-keys`, tsconfig.json's `paths`) for
 * code the global setup loads, which Jest requires without its moduleNameMapper: the migrations
 * it applies to the run's template database import the api-keys library's.
 */
export function resolveLibraryAliases(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const alias = /^@pet-adoption\/(api-keys|rate-limit)(\/testing)?(\/.*)?$/.exec(specifier);
      if (!alias) return nextResolve(specifier, context);
      const [, library, testing, rest = ''] = alias;
      return nextResolve(join(ROOT, 'libs', library, testing ? 'testing' : 'src', rest), context);
    },
  });
}
