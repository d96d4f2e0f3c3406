import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode } from '../../../common/error-codes';
import { VALIDATION_ISSUES, ValidationIssue } from './api-error';

/** One offending input of a `validation_failed` answer. */
@ApiSchema({ name: 'ErrorDetail' })
export class ErrorDetailDto {
  @ApiProperty({
    description:
      'The input: a body field (a dotted path when nested, such as `limits.perDay`), a query or path parameter, or a header',
    example: 'categoryId',
  })
  field!: string;

  @ApiProperty({
    description:
      '`required`: absent; `unknown_field`: no such field or parameter (the message names the closest known one and lists them); `type`: of another type; `range`: out of bounds; `format`: not of the required form; `enum`: not one of the allowed values (the message lists them)',
    enum: VALIDATION_ISSUES,
    example: 'required',
  })
  issue!: ValidationIssue;

  @ApiProperty({
    description: 'What is wrong with the input, and how to put it right',
    example: 'categoryId is required.',
  })
  message!: string;
}

/** The one body of every error response. */
@ApiSchema({ name: 'Error' })
export class ErrorBodyDto {
  @ApiProperty({
    description: 'Machine-readable error code, from a closed set; each response lists its own',
    enum: Object.keys(ERROR_CODES),
    example: 'validation_failed',
  })
  code!: ErrorCode;

  @ApiProperty({
    description: 'Human-readable description, naming the offending field(s) and how to fix them',
    example: 'limit must be an integer from 1 to 100',
  })
  message!: string;

  @ApiProperty({
    description: 'The HTTP status code of the response',
    type: 'integer',
    example: 400,
  })
  status!: number;

  @ApiPropertyOptional({
    description:
      'For `validation_failed`: each offending input once per issue, in the order of `message`',
    type: [ErrorDetailDto],
  })
  details?: ErrorDetailDto[];

  @ApiPropertyOptional({
    description:
      "The response's `X-Request-Id` (the client's own when it sent a plain one): give it when reporting a problem",
    example: '4f9c1a52-0d5e-4a3b-9f57-2c8e6b1d7a10',
  })
  requestId?: string;

  @ApiPropertyOptional({
    description: 'The section of the served documentation that explains the code and what to do',
    format: 'uri',
    example: 'http://localhost:3000/v1/docs/errors#validation_failed',
  })
  docUrl?: string;
}
