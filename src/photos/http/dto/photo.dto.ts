import { ApiProperty, ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import { MAX_PHOTOS_PER_PET } from '../../domain/photo';

const url = (width: string): ApiPropertyOptions => ({
  description: `The image ${width}: absolute, content-addressed, cached for a year (\`GET\` needs no key)`,
  type: 'string',
  format: 'uri',
});

@ApiSchema({ name: 'PhotoUrls' })
class PhotoUrlsDto {
  @ApiProperty(url('100 px wide (never enlarged)'))
  small!: string;

  @ApiProperty(url('300 px wide (never enlarged)'))
  medium!: string;

  @ApiProperty(url('600 px wide (never enlarged)'))
  large!: string;

  @ApiProperty(url('as uploaded, within 2,048 px on its longer side'))
  full!: string;
}

/** A photo of an animal as answered, alone or in the animal's `photos`. */
@ApiSchema({ name: 'Photo' })
export class PhotoDto {
  @ApiProperty({ description: 'Identifier of the photo', type: 'integer', format: 'int64' })
  id!: number;

  @ApiProperty({
    description:
      'Its place among the animal’s photos: 1 is the primary, the others follow without gaps',
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_PHOTOS_PER_PET,
  })
  position!: number;

  @ApiProperty({ description: 'Width of the `full` image, in pixels', type: 'integer' })
  width!: number;

  @ApiProperty({ description: 'Height of the `full` image, in pixels', type: 'integer' })
  height!: number;

  @ApiProperty({ type: PhotoUrlsDto })
  urls!: PhotoUrlsDto;
}
