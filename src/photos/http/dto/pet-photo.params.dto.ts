import { ApiProperty } from '@nestjs/swagger';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { PetId, PhotoId } from '../../domain/photo';
import { PetNotOwnedError, PhotoNotFoundError } from '../../domain/photo.errors';

/** The path of an animal's photos (`/v1/pets/{petId}/photos`). */
export class PetPhotosParamsDto {
  @ApiProperty({
    description: 'Identifier of the animal',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsInt64Text(1n)
  petId!: string;
}

/** The path of one photo (`/v1/pets/{petId}/photos/{photoId}`). */
export class PetPhotoParamsDto extends PetPhotosParamsDto {
  @ApiProperty({
    description: 'Identifier of the photo',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsInt64Text(1n)
  photoId!: string;
}

/** Ids beyond 2^53 - 1 name nothing that can exist: a 404 with the id as written. */
export function petIdOf({ petId }: PetPhotosParamsDto): PetId {
  if (BigInt(petId) > BigInt(Number.MAX_SAFE_INTEGER)) throw new PetNotOwnedError(petId);
  return Number(petId);
}

export function photoIdOf(params: PetPhotoParamsDto): PhotoId {
  const petId = petIdOf(params);
  if (BigInt(params.photoId) > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new PhotoNotFoundError(petId, params.photoId);
  }
  return Number(params.photoId);
}
