import { Controller, Get, Headers, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrorResponses } from '../../platform/http/errors/api-error-responses.decorator';
import { strongEntityTag } from '../../platform/http/request/entity-tags';
import { KeylessBudget, Stability } from '../../platform/http/route-facts/route-facts.decorators';
import { GetPhotoImage } from '../application/get-photo-image.use-case';
import { parsePhotoKey } from '../domain/photo-key';
import { PhotoFileParamsDto } from './dto/photo-file.params.dto';
import { namesEntityTag } from '../../platform/http/request/if-none-match';
import { PhotoBudgetGuard } from './photo-budget.guard';

/** A key's bytes never change: any cache may keep them for a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const ENTITY_HEADERS = {
  ETag: {
    description: 'The SHA-256 of the bytes, as a strong entity tag',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: `\`${IMMUTABLE}\`: the bytes of this URL never change`,
    schema: { type: 'string' },
  },
};

const IMAGE = { schema: { type: 'string', format: 'binary' } };

@ApiTags('photos')
@Controller('v1/photos')
export class PhotoImagesController {
  constructor(private readonly getPhotoImage: GetPhotoImage) {}

  @Get(':file')
  @KeylessBudget('photo GETs', PhotoBudgetGuard)
  @Stability('beta')
  @ApiOperation({
    operationId: 'getPhotoImage',
    summary: 'One size of a photo',
    description:
      "The bytes of one of a photo's variants, at the URL a Photo's `urls` give: content-addressed, so they never change and may be cached for a year. Unguessable, and public pixels only (no metadata).",
  })
  @ApiResponse({
    status: 200,
    description: 'The image',
    headers: ENTITY_HEADERS,
    content: { 'image/jpeg': IMAGE, 'image/webp': IMAGE, 'image/png': IMAGE },
  })
  @ApiResponse({
    status: 304,
    description: "`If-None-Match` names the image's ETag: the copy held is current",
    headers: ENTITY_HEADERS,
  })
  @ApiErrorResponses(
    'validation_failed',
    'not_found',
    'rate_limited',
    'key_temporarily_banned',
    'internal_error',
    'service_unavailable',
  )
  async get(
    @Param() { file }: PhotoFileParamsDto,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    const { hash } = parsePhotoKey(file)!;
    const image = await this.getPhotoImage.execute(file, namesEntityTag(ifNoneMatch, hash));
    void reply.header('etag', strongEntityTag(hash)).header('cache-control', IMMUTABLE);
    if (image.current) {
      void reply.status(304);
      return undefined;
    }
    return new StreamableFile(image.body, { type: image.contentType, length: image.length });
  }
}
