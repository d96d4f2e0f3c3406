import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { IsOptional, Matches } from 'class-validator';

/** The Idempotency-Key header of a request, as the validation pipe checks it. */
export class IdempotencyKeyHeader {
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
