import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiError } from '../errors/api-error';
import { IfMatchCondition, parseIfMatch } from './entity-tags';

/**
 * Handler parameter: the request's `If-Match` precondition, or undefined when it sent none. A value
 * that is not `*` or a list of entity tags is a 400 naming the header: a client that sent `3`
 * instead of `"3"` learns its mistake instead of a 412 it cannot explain.
 */
export const IfMatch = createParamDecorator(
  (_: unknown, context: ExecutionContext): IfMatchCondition | undefined => {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>()
      .headers['if-match'];
    if (typeof header !== 'string') return undefined;
    const condition = parseIfMatch(header);
    if (!condition) {
      throw new ApiError(
        'validation_failed',
        'If-Match must be * or a comma-separated list of entity tags, each in double quotes, such as "3".',
      );
    }
    return condition;
  },
);

/** Documents the optional `If-Match` header of an operation that changes a `resource`. */
export const ApiIfMatchHeader = (resource: string) =>
  ApiHeader({
    name: 'If-Match',
    required: false,
    description:
      `Changes the ${resource} only if its current \`ETag\` is among those given (\`*\`: any existing ${resource}); ` +
      'otherwise a 412 changes nothing. Strong comparison: a weak tag (`W/"3"`) never matches.',
    schema: { type: 'string', example: '"3"' },
  });
