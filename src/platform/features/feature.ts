import { Type } from '@nestjs/common';

const FEATURE = Symbol('feature');

/** What a feature module tells the application about itself (docs/adr/0026). */
export interface FeatureOptions {
  /** The OpenAPI tag its operations carry, and what the tag means. */
  tag: { name: string; description: string };
  /**
   * The tables its SQL touches, migrations included (docs/extending.md, "Declared tables"): those
   * it owns (creates, and alone defines), and those of others it reads, joins, refers to or
   * changes. The coupling the import rules cannot see, stated where a reviewer sees it, and
   * checked against the SQL (src/platform/features/feature-tables.spec.ts).
   */
  tables: { owns: readonly string[]; uses?: readonly string[] };
}

/**
 * Marks a module as a feature of the public API under /v1: the application's wiring, the OpenAPI
 * document and the specs find it from the root module's imports, so that adding a feature edits
 * no list but that one.
 */
export function Feature(options: FeatureOptions): ClassDecorator {
  return (target) => Reflect.defineMetadata(FEATURE, options, target);
}

/** The feature options of `module`, or undefined when it is no feature. */
export function featureOf(module: unknown): FeatureOptions | undefined {
  return typeof module === 'function' ? Reflect.getMetadata(FEATURE, module) : undefined;
}

/** The modules among `modules` that are features, in order. */
export function featuresAmong(modules: readonly unknown[]): Type[] {
  return modules.filter((module): module is Type => featureOf(module) !== undefined);
}
