import { ApiProperty } from '@nestjs/swagger';
import { IsInt64Text } from '../../../platform/http/request/int64';

/** The path of a key (`/v1/keys/{keyId}`): an integer from 1 to 2^63 - 1, as text. */
export class KeyIdParamsDto {
  @ApiProperty({
    description: 'Identifier of the key',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsInt64Text(1n)
  keyId!: string;
}
