/** How many inputs each DTO class remembers; the oldest is forgotten first. */
export const ENTRIES_PER_CLASS = 1_024;
/** Inputs whose key is longer are validated every time (and cost no memory here). */
const MAX_KEY_LENGTH = 512;

import { ErrorDetail } from '../errors/api-error';

/** What validating an input gave: the DTO's own properties, or the refusal's details. */
type Outcome =
  | { valid: true; properties: [string, unknown][] }
  | { valid: false; details: readonly ErrorDetail[] };

/** The properties of a valid DTO are kept only when each is a primitive, so that a copy is whole. */
const isPrimitive = (value: unknown) =>
  value === null || (typeof value !== 'object' && typeof value !== 'function');

/**
 * The results of validating path and query inputs, which clients repeat (the same page, the same
 * id), keyed on the exact raw input and the DTO class, bounded per class, and answered as fresh
 * objects: a hit builds a new instance of the class (its constructor runs, as class-transformer's
 * does) with the same own properties in the same order, or raises the same refusal again.
 *
 * Only inputs whose every value is a string are remembered (a query's or a path's, never a
 * body's): their JSON text is an exact key, since JSON escapes strings injectively and keeps the
 * order of the properties. A property test compares both paths on generated inputs
 * (request-validation.spec.ts).
 */
export class ValidationCache {
  private readonly classes = new Map<object, Map<string, Outcome>>();

  /** The key of a raw input, or undefined when it is not one to remember. */
  keyOf(value: unknown): string | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    for (const key in value) {
      if (typeof (value as Record<string, unknown>)[key] !== 'string') return undefined;
    }
    const key = JSON.stringify(value);
    return key.length <= MAX_KEY_LENGTH ? key : undefined;
  }

  /**
   * A fresh DTO for a remembered valid input, or the refusal's details for a remembered invalid
   * one (never changed once made); undefined when the input was not validated yet.
   */
  recall<T extends object>(
    metatype: new () => T,
    key: string,
  ): { valid: true; dto: T } | { valid: false; details: readonly ErrorDetail[] } | undefined {
    const outcome = this.classes.get(metatype)?.get(key);
    if (!outcome) return undefined;
    if (!outcome.valid) return outcome;
    const dto = new metatype() as Record<string, unknown>;
    for (const [name, value] of outcome.properties) dto[name] = value;
    return { valid: true, dto: dto as T };
  }

  rememberValid(metatype: object, key: string, dto: object): void {
    const properties = Object.entries(dto);
    if (properties.every(([, value]) => isPrimitive(value))) {
      this.remember(metatype, key, { valid: true, properties });
    }
  }

  rememberInvalid(metatype: object, key: string, details: readonly ErrorDetail[]): void {
    this.remember(metatype, key, { valid: false, details });
  }

  /** How many inputs of the class it remembers. */
  size(metatype: object): number {
    return this.classes.get(metatype)?.size ?? 0;
  }

  private remember(metatype: object, key: string, outcome: Outcome): void {
    let entries = this.classes.get(metatype);
    if (!entries) this.classes.set(metatype, (entries = new Map()));
    if (entries.size >= ENTRIES_PER_CLASS) {
      entries.delete(entries.keys().next().value as string);
    }
    entries.set(key, outcome);
  }
}
