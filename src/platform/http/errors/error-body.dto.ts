import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode } from '../../../common/error-codes';

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
    description: 'Human-readable description, naming the offending field(s)',
    example: 'limit must be an integer from 1 to 100',
  })
  message!: string;

  @ApiProperty({
    description: 'The HTTP status code of the response',
    type: 'integer',
    example: 400,
  })
  status!: number;
}
