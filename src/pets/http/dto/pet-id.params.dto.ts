import { ApiProperty } from '@nestjs/swagger';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { MAX_PET_ID, PetId } from '../../domain/pet';
import { PetNotFoundError } from '../../domain/pet.errors';

/** The path of an animal (`/v1/pets/{petId}`): an integer from 1 to 2^63 - 1, as text, never rounded. */
export class PetIdParamsDto {
  @ApiProperty({
    description: 'Identifier of the animal',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsInt64Text(1n)
  petId!: string;
}

/** The pet id a valid path names. Above 2^53 - 1 no pet can have it: a 404, with the id as written. */
export function petIdOf({ petId }: PetIdParamsDto): PetId {
  if (BigInt(petId) > BigInt(MAX_PET_ID)) throw new PetNotFoundError(petId);
  return Number(petId);
}
