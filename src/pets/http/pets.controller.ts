import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
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
import { nextPageLink, nextPageLinkHeader } from '../../platform/http/response/next-page-link';
import { CreatePet } from '../application/create-pet.use-case';
import { GetPet } from '../application/get-pet.use-case';
import { ListPets } from '../application/list-pets.use-case';
import { MAX_PET_ID, Pet } from '../domain/pet';
import { ListPetsQueryDto } from './dto/list-pets-query.dto';
import { NewPetDto } from './dto/new-pet.dto';
import { PetDto } from './dto/pet.dto';
import { ApiNamedArrayResponse } from '../../platform/http/response/api-named-array-response.decorator';
import { Deprecated, RequiresScope } from '../../platform/http/route-facts/route-facts.decorators';
import { PetIdParamsDto, petIdOf } from './dto/pet-id.params.dto';

@ApiTags('animals')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1/pets')
export class PetsController {
  constructor(
    private readonly listPets: ListPets,
    private readonly createPet: CreatePet,
    private readonly getPet: GetPet,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @RequiresScope('pets:read')
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List animals',
    description: 'Returns a page of animals in ascending id order.',
  })
  @ApiNamedArrayResponse('Pets', PetDto, {
    status: 200,
    description: 'The list of animals',
    headers: nextPageLinkHeader('animals'),
  })
  @ApiErrorResponses('validation_failed')
  async list(
    @Query() query: ListPetsQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Pet[]> {
    const limit = query.limit === undefined ? undefined : Number(query.limit);
    // No pet has an id above MAX_PET_ID: after it every page is empty, as after any greater id.
    const after = query.after === undefined ? undefined : Math.min(Number(query.after), MAX_PET_ID);
    const page = await this.listPets.execute({ status: query.status, after, limit });
    if (page.nextAfter !== null) {
      const address = `${this.config.http.publicBaseUrl}/pets`;
      const { status } = query;
      void reply.header(
        'link',
        nextPageLink(address, { limit: query.limit, status, after: String(page.nextAfter) }),
      );
    }
    return page.pets;
  }

  @Post()
  @HttpCode(201)
  @RequiresScope('pets:write')
  @ApiOperation({ operationId: 'createPet', summary: 'Add an animal' })
  @ApiResponse({
    status: 201,
    description: 'Animal added; the body carries the assigned id',
    type: PetDto,
    headers: {
      Location: {
        description: 'Address of the new animal',
        schema: { type: 'string', format: 'uri' },
      },
    },
  })
  @ApiIdempotencyKeyHeader('pet')
  @ApiErrorResponses(...BODY_ERRORS, 'idempotency_key_reused')
  async create(
    @Body() body: NewPetDto,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Pet> {
    const idempotency = key === undefined ? undefined : { scope: `key:${client.keyId}`, key };
    const { pet, replayed } = await this.createPet.execute(
      { keyId: client.keyId, scopes: client.scopes },
      body,
      idempotency,
    );
    void reply.header('location', `${this.config.http.publicBaseUrl}/pets/${pet.id}`);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return pet;
  }

  @Get(':petId')
  @Deprecated({
    since: '2026-11-21T00:00:00Z',
    sunset: 'getPet',
    successor: '/pets',
    instead: 'use GET /v1/pets with a status filter.',
  })
  @RequiresScope('pets:read')
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Fetch one animal (deprecated)',
    description: 'Returns one animal by identifier.',
  })
  @ApiResponse({ status: 200, description: 'The requested animal', type: PetDto })
  @ApiErrorResponses('validation_failed', 'not_found', 'gone')
  get(@Param() params: PetIdParamsDto): Promise<Pet> {
    return this.getPet.execute(petIdOf(params));
  }
}
