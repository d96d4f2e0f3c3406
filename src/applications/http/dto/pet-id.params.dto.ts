import { ApiProperty } from '@nestjs/swagger';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { PetId } from '../../domain/application';
import { PetNotFoundError } from '../../domain/application.errors';

/**
 * The path of a pet's applications, as the house reads ids: an integer from 1 to 2^63 - 1, as
 * text, never rounded (anything else is a 400).
 */
export class PetIdParamsDto {
  @ApiProperty({
    description: 'Identifier of the pet',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsInt64Text(1n)
  petId!: string;
}

/** The id a valid path names. Above 2^53 - 1 no row can have it: a 404, with the id as written. */
export function petIdOf({ petId }: PetIdParamsDto): PetId {
  if (BigInt(petId) > BigInt(Number.MAX_SAFE_INTEGER)) throw new PetNotFoundError(petId);
  return Number(petId);
}
