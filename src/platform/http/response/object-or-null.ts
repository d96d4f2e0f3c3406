import type { Type } from '@nestjs/common';
import { ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';

/**
 * The schema of a member that is an object of `type`, or null. Written as `nullable` beside an
 * `allOf` reference (what `{ type, nullable: true }` gives), null is refused by the letter of
 * OpenAPI 3.0.3, where `nullable` only widens a `type` of its own schema, and by the validators
 * that follow it (the property spec's did); this says it so that both they and the typed client's
 * generator read "the object, or null". The class must be among the document's models
 * (`@ApiExtraModels`).
 */
export function objectOrNull(type: Type<unknown>): ApiPropertyOptions {
  return {
    anyOf: [{ $ref: getSchemaPath(type) }, { type: 'object', nullable: true, enum: [null] }],
  };
}
