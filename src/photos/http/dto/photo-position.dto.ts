import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { MAX_PHOTOS_PER_PET } from '../../domain/photo';

/** Where a photo moves among its animal's photos. */
@ApiSchema({ name: 'PhotoPosition' })
export class PhotoPositionDto {
  @ApiProperty({
    description:
      'Its new place: 1 makes it the primary; the photos between its old and new place shift by one',
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_PHOTOS_PER_PET,
  })
  @IsInt({ message: 'position must be an integer' })
  @Min(1, { message: `position must be an integer from 1 to ${MAX_PHOTOS_PER_PET}` })
  @Max(MAX_PHOTOS_PER_PET, {
    message: `position must be an integer from 1 to ${MAX_PHOTOS_PER_PET}`,
  })
  position!: number;
}
