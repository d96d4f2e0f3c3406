import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AllowAnonymous } from '@pet-adoption/api-keys';
import { AppConfig } from '../../config/app-config';
import { ApiIndex, apiIndexOf } from './api-index';

/**
 * `GET /` and `GET /v1`: the first addresses a newcomer tries answer with where the docs page and
 * the OpenAPI document are, instead of a 404. No key, as the docs page needs none; counted per
 * client address by the global throttler as every keyless request is. Kept out of the document:
 * it is the way to the document, not an operation of the API.
 */
@ApiExcludeController()
@AllowAnonymous()
@Controller()
export class ApiIndexController {
  private readonly index: ApiIndex;

  constructor(config: AppConfig) {
    this.index = apiIndexOf(config.http.publicBaseUrl);
  }

  @Get(['/', 'v1'])
  answer(): ApiIndex {
    return this.index;
  }
}
