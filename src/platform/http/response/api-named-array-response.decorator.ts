import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiExtension,
  ApiExtraModels,
  ApiResponse,
  ApiResponseOptions,
  getSchemaPath,
} from '@nestjs/swagger';

/** The operation extension carrying named schemas to the OpenAPI builder, which moves them. */
export const COMPONENT_SCHEMAS_EXTENSION = 'x-component-schemas';

/**
 * Documents a response whose body is an array of `item` under a name of its own (the
 * specification's `Pets`), which the generator cannot name: the schema travels on the operation
 * and the OpenAPI builder adds it to the document's components.
 */
export function ApiNamedArrayResponse(
  name: string,
  item: Type,
  options: Omit<ApiResponseOptions, 'type' | 'schema' | 'isArray'>,
): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(item),
    ApiResponse({
      ...options,
      schema: { $ref: `#/components/schemas/${name}` },
    } as ApiResponseOptions),
    ApiExtension(COMPONENT_SCHEMAS_EXTENSION, {
      [name]: { type: 'array', items: { $ref: getSchemaPath(item) } },
    }),
  );
}
