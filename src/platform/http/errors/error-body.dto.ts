import { ApiProperty } from '@nestjs/swagger';

/** The one body of every error response. */
export class ErrorBodyDto {
  @ApiProperty({
    description: 'Machine-readable error code (closed set, see the README)',
    example: 'validation_failed',
  })
  code!: string;

  @ApiProperty({
    description: 'Human-readable description',
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
