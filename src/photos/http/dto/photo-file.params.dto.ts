import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { PHOTO_KEY_PATTERN } from '../../domain/photo-key';

/** The path of a variant (`/v1/photos/{file}`): its key, the SHA-256 of its bytes and their type. */
export class PhotoFileParamsDto {
  @ApiProperty({
    description: 'The SHA-256 of the image in lowercase hex, and its extension',
    pattern: PHOTO_KEY_PATTERN.source,
    example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.jpg',
  })
  @Matches(PHOTO_KEY_PATTERN, {
    message: 'file must be a SHA-256 in lowercase hex and .jpg, .png or .webp',
  })
  file!: string;
}
