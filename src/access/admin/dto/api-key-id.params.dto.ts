import { ApiProperty } from '@nestjs/swagger';
import { IsInt64Text } from '../../../platform/http/request/int64';

/** The path of the admin operations on one key: an id as the listing shows it (a JSON integer). */
export class ApiKeyIdParamsDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  @IsInt64Text(1n, BigInt(Number.MAX_SAFE_INTEGER))
  id!: string;
}
