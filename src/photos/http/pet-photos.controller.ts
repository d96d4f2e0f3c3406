import { Body, Controller, Delete, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiClient, AuthenticatedClient } from '@pet-adoption/api-keys';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AppConfig } from '../../platform/config/app-config';
import {
  ApiErrorResponses,
  BODY_ERRORS,
  KEY_PROTECTED_ERRORS,
} from '../../platform/http/errors/api-error-responses.decorator';
import {
  ApiIdempotencyKeyHeader,
  IdempotencyKey,
  IdempotencyKeyHeader,
} from '../../platform/http/request/idempotency-key';
import { ImageUpload, UploadedImage } from '../../platform/http/request/image-upload';
import { requesterOf } from '../../platform/http/request/requester';
import {
  AcceptsImage,
  RequiresScope,
  Stability,
} from '../../platform/http/route-facts/route-facts.decorators';
import { DeletePhoto } from '../application/delete-photo.use-case';
import { ReorderPhoto } from '../application/reorder-photo.use-case';
import { UploadPhoto } from '../application/upload-photo.use-case';
import { MAX_PHOTOS_PER_PET, Photo } from '../domain/photo';
import { photoImagesBase, photoUrls } from '../infrastructure/photo-urls';
import {
  PetPhotoParamsDto,
  PetPhotosParamsDto,
  petIdOf,
  photoIdOf,
} from './dto/pet-photo.params.dto';
import { PhotoDto } from './dto/photo.dto';
import { PhotoPositionDto } from './dto/photo-position.dto';

const OWNERS_ONLY =
  "Only the staff of the animal's organisation (`pets:manage`): another organisation's animal is a 404 here.";

/** An animal's photos: added from an image, moved, removed (CONTRACT.md, "Photos"). */
@ApiTags('photos')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1/pets/:petId/photos')
export class PetPhotosController {
  private readonly imagesBase: string;

  constructor(
    private readonly uploadPhoto: UploadPhoto,
    private readonly reorderPhoto: ReorderPhoto,
    private readonly deletePhoto: DeletePhoto,
    config: AppConfig,
  ) {
    this.imagesBase = photoImagesBase(config);
  }

  @Post()
  @HttpCode(201)
  @Stability('beta')
  @RequiresScope('pets:manage')
  @AcceptsImage()
  @ApiOperation({
    operationId: 'uploadPetPhoto',
    summary: 'Add a photo of an animal',
    description:
      `The image as the body: JPEG, PNG or WebP, at most 10 MiB and 40 megapixels, each side 16 to 16,384 px (judged from its header before a pixel is decoded: else 400 with the rule in \`details\`); its type is judged from its bytes, and must be what \`Content-Type\` says. ` +
      'It is turned upright, stripped of every metadata (no EXIF, no GPS) and stored in four sizes; the animal gains it last among its photos, at most ' +
      `${MAX_PHOTOS_PER_PET}, and counts a new version (\`pet.updated\`). ${OWNERS_ONLY} ` +
      'A busy instance refuses at once with 503 and `Retry-After` rather than queueing without bound.',
  })
  @ApiResponse({
    status: 201,
    description: 'The photo, as the animal now carries it',
    type: PhotoDto,
  })
  @ApiIdempotencyKeyHeader('photo')
  @ApiErrorResponses(
    'validation_failed',
    'not_found',
    'limit_reached',
    'payload_too_large',
    'unsupported_media_type',
    'idempotency_key_reused',
    'service_unavailable',
  )
  async upload(
    @Param() params: PetPhotosParamsDto,
    @ImageUpload() image: UploadedImage,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PhotoDto> {
    const idempotency = key === undefined ? undefined : { scope: `key:${client.keyId}`, key };
    const { photo, replayed } = await this.uploadPhoto.execute(
      requesterOf(client),
      petIdOf(params),
      image,
      idempotency,
    );
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return this.answer(photo);
  }

  @Patch(':photoId')
  @Stability('beta')
  @RequiresScope('pets:manage')
  @ApiOperation({
    operationId: 'movePetPhoto',
    summary: 'Move a photo among its animal’s photos',
    description: `Position 1 makes it the primary; the photos between its old and new place shift by one. ${OWNERS_ONLY}`,
  })
  @ApiResponse({ status: 200, description: 'The photo, moved', type: PhotoDto })
  @ApiErrorResponses(...BODY_ERRORS, 'not_found')
  async move(
    @Param() params: PetPhotoParamsDto,
    @Body() { position }: PhotoPositionDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<PhotoDto> {
    const photo = await this.reorderPhoto.execute(
      requesterOf(client),
      petIdOf(params),
      photoIdOf(params),
      position,
    );
    return this.answer(photo);
  }

  @Delete(':photoId')
  @HttpCode(204)
  @Stability('beta')
  @RequiresScope('pets:manage')
  @ApiOperation({
    operationId: 'deletePetPhoto',
    summary: 'Remove a photo of an animal',
    description: `The photos after it move up by one; its images are deleted unless another photo shows the same. ${OWNERS_ONLY}`,
  })
  @ApiResponse({ status: 204, description: 'Removed' })
  @ApiErrorResponses('validation_failed', 'not_found')
  async delete(
    @Param() params: PetPhotoParamsDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<void> {
    await this.deletePhoto.execute(requesterOf(client), petIdOf(params), photoIdOf(params));
  }

  /** The photo as the animal's `photos` shows it. */
  private answer({ id, position, width, height, variants }: Photo): PhotoDto {
    return { id, position, width, height, urls: photoUrls({ variants }, this.imagesBase) };
  }
}
