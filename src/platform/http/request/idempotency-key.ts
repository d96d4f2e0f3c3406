import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

/** The Idempotency-Key header of a request, as the validation pipe checks it. */
export class IdempotencyKeyHeader {
  /** A refusal names the header, not the property (validation-details.ts). */
  static readonly fieldNames = { key: 'Idempotency-Key' };

  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,255}$/, {
    message: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
  })
  key?: string;
}

/**
 * Handler parameter: the request's `Idempotency-Key` header, checked by the same validation as
 * every other input (the parameter's type is IdempotencyKeyHeader).
 */
export const IdempotencyKey = createParamDecorator(
  (_: unknown, context: ExecutionContext): IdempotencyKeyHeader => {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>()
      .headers['idempotency-key'];
    return Object.assign(new IdempotencyKeyHeader(), { key: header });
  },
);

/**
 * Documents the optional `Idempotency-Key` header of an operation that creates a `resource`,
 * answering `status` (201, or 200 for a roll's new secret).
 */
export const ApiIdempotencyKeyHeader = (resource: string, status = 201) =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      `Makes retries safe: a retry with the same key and body within 24 hours returns the original ${status} ` +
      `(with \`Idempotent-Replayed: true\`) instead of a second ${resource}; the same key with another body is a 422.`,
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  });
