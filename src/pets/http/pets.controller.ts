import { randomInt } from 'node:crypto';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { ApiClient, AuthenticatedClient } from '@pet-adoption/api-keys';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
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
import { ApiIfMatchHeader, IfMatch } from '../../platform/http/request/if-match';
import type { IfMatchCondition } from '../../platform/http/request/entity-tags';
import { nextPageLink, nextPageLinkHeader } from '../../platform/http/response/next-page-link';
import { CreatePet } from '../application/create-pet.use-case';
import { DeletePet } from '../application/delete-pet.use-case';
import { GetPet } from '../application/get-pet.use-case';
import { ListPets } from '../application/list-pets.use-case';
import { PetAnswer, ShowOpenApplications } from '../application/show-open-applications.use-case';
import { PetFinding, PetOrder } from '../application/pet.repository';
import { shuffleStart } from '../domain/pet-order';
import { commaList } from '../../platform/http/request/comma-list.validator';
import { idList } from '../../platform/http/request/id-list.validator';
import { nearOf } from '../../platform/http/request/near-query.dto';
import { GoodWith, PetAge, PetSex, PetSize } from '../domain/pet-profile-shape';
import { PetStatus } from '../domain/pet-status';
import { UpdatePet } from '../application/update-pet.use-case';
import { MAX_PET_ID, Pet } from '../domain/pet';
import { ListPetsQueryDto, MAX_LISTED_IDS, MAX_SEED, PetSort } from './dto/list-pets-query.dto';
import { NewPetDto } from './dto/new-pet.dto';
import { PetDto } from './dto/pet.dto';
import { PetUpdateDto } from './dto/pet-update.dto';
import { ApiNamedArrayResponse } from '../../platform/http/response/api-named-array-response.decorator';
import {
  AcceptsMergePatch,
  ConditionalRead,
  Deprecated,
  RequiresScope,
  Stability,
} from '../../platform/http/route-facts/route-facts.decorators';
import { PetIdParamsDto, petIdOf } from './dto/pet-id.params.dto';
import {
  etagHeader,
  versionEntityTag,
  versionPreconditionOf,
} from '../../platform/http/response/version-entity-tag';

const ETAG_HEADER = etagHeader('animal');
import { requesterOf } from '../../platform/http/request/requester';

/** The order `sort` asks for, or undefined for the ids' (v1's). A random one has its seed. */
function orderOf(sort?: string, seed?: string): PetOrder | undefined {
  switch (sort as PetSort | undefined) {
    case '-createdAt':
      return { by: 'newest' };
    case 'name':
      return { by: 'name' };
    case 'random':
      return { by: 'random', start: shuffleStart(Number(seed)) };
    case 'distance':
      return { by: 'distance' };
    default:
      return undefined;
  }
}

/** v1.3's finding filters of a listing's query, or undefined when it gives none (a v1 page). */
function findingOf(query: ListPetsQueryDto, statuses?: PetStatus[]): PetFinding | undefined {
  const { organizationId, breed, age, sex, size, goodWith, houseTrained, specialNeeds } = query;
  const { hasPhotos, sort, seed, id, externalId } = query;
  const flag = (text?: string) => (text === undefined ? undefined : text === 'true');
  const list = <T>(text?: string) => (text === undefined ? undefined : (commaList(text) as T[]));
  const finding: PetFinding = {
    ids: id === undefined ? undefined : idList(id),
    statuses: statuses && statuses.length > 1 ? statuses : undefined,
    organizationId: organizationId === undefined ? undefined : Number(organizationId),
    externalId,
    breed,
    ages: list<PetAge>(age),
    sexes: list<PetSex>(sex),
    sizes: list<PetSize>(size),
    goodWith: list<GoodWith>(goodWith),
    houseTrained: flag(houseTrained),
    specialNeeds: flag(specialNeeds),
    hasPhotos: hasPhotos === 'true' || undefined,
    near: nearOf(query),
    order: orderOf(sort, seed),
  };
  return Object.values(finding).some((value) => value !== undefined) ? finding : undefined;
}

@ApiTags('animals')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1/pets')
export class PetsController {
  constructor(
    private readonly listPets: ListPets,
    private readonly createPet: CreatePet,
    private readonly getPet: GetPet,
    private readonly updatePet: UpdatePet,
    private readonly deletePet: DeletePet,
    private readonly showOpenApplications: ShowOpenApplications,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ConditionalRead()
  @RequiresScope('pets:read')
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List animals',
    description:
      'Returns a page of animals, in ascending id order unless `sort` names another (v1.3: `-createdAt`, `name`, `random` with `seed`, `distance` with `near`); every filter combines: (v1.4) `id` (up to 100, the stable way to fetch animals by id), `externalId`, `status` (one or more), `categoryId`, `name`, and (v1.3) `organizationId`, `breed`, `age`, `sex`, `size`, `goodWith`, `houseTrained`, `specialNeeds`, `hasPhotos`, `near` (with `radiusKm`: each answer then carries `distanceKm`). `Link` carries every parameter given to the next page.',
  })
  @ApiNamedArrayResponse('Pets', PetDto, {
    status: 200,
    description: 'The list of animals',
    headers: nextPageLinkHeader('animals'),
  })
  @ApiErrorResponses('validation_failed')
  async list(
    @Query() given: ListPetsQueryDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PetAnswer[]> {
    // A shuffle the client left to the service: one picked now, and carried in `Link`. A copy:
    // the validated query may be shared with other requests (the validation's cache).
    const query =
      given.sort === 'random' && given.seed === undefined
        ? { ...given, seed: String(randomInt(MAX_SEED + 1)) }
        : given;
    // Animals asked for by id come in one page unless a client asks for smaller ones.
    const limit =
      query.limit !== undefined
        ? Number(query.limit)
        : query.id !== undefined
          ? MAX_LISTED_IDS
          : undefined;
    // No pet has an id above MAX_PET_ID: after it every page is empty, as after any greater id.
    const after = query.after === undefined ? undefined : Math.min(Number(query.after), MAX_PET_ID);
    const { status, categoryId, name } = query;
    const statuses = status === undefined ? undefined : (commaList(status) as PetStatus[]);
    const page = await this.listPets.execute({
      // One status is v1's filter; two or more are v1.3's finding.
      status: statuses?.length === 1 ? statuses[0] : undefined,
      // Validated as at most 2^53 - 1: exact as a number.
      categoryId: categoryId === undefined ? undefined : Number(categoryId),
      name,
      finding: findingOf(query, statuses),
      after,
      limit,
    });
    if (page.nextAfter !== null) {
      const address = `${this.config.http.publicBaseUrl}/pets`;
      // Every filter as it was given, so that the next page is of the same search.
      const { limit: given, after: _, ...filters } = query;
      void reply.header(
        'link',
        nextPageLink(address, { limit: given, ...filters, after: String(page.nextAfter) }),
      );
    }
    return this.showOpenApplications.execute(requesterOf(client), page.pets);
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
      ...ETAG_HEADER,
    },
  })
  @ApiIdempotencyKeyHeader('pet')
  @ApiErrorResponses(...BODY_ERRORS, 'idempotency_key_reused')
  async create(
    @Body() body: NewPetDto,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PetAnswer> {
    const idempotency = key === undefined ? undefined : { scope: `key:${client.keyId}`, key };
    const { pet, replayed } = await this.createPet.execute(requesterOf(client), body, idempotency);
    void reply.header('location', `${this.config.http.publicBaseUrl}/pets/${pet.id}`);
    void reply.header('etag', versionEntityTag(pet));
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return this.answerOne(client, pet);
  }

  @Get(':petId')
  @Deprecated({
    since: '2026-11-21T00:00:00Z',
    sunset: 'getPet',
    successor: '/pets',
    instead: 'use GET /v1/pets with a status filter.',
  })
  @ConditionalRead()
  @RequiresScope('pets:read')
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Fetch one animal (deprecated)',
    description: 'Returns one animal by identifier.',
  })
  @ApiResponse({
    status: 200,
    description: 'The requested animal',
    type: PetDto,
    headers: ETAG_HEADER,
  })
  @ApiErrorResponses('validation_failed', 'not_found', 'gone')
  async get(
    @Param() params: PetIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PetAnswer> {
    const pet = await this.getPet.execute(petIdOf(params));
    void reply.header('etag', versionEntityTag(pet));
    return this.answerOne(client, pet);
  }

  @Patch(':petId')
  @Stability('beta')
  @RequiresScope('pets:manage')
  @AcceptsMergePatch()
  @ApiOperation({
    operationId: 'updatePet',
    summary: 'Correct an animal',
    description:
      'Changes the fields given (JSON Merge Patch, RFC 7396: absent fields are kept, `null` is refused, `{}` changes nothing). ' +
      "Only the staff of the animal's organisation: another organisation's animal is a 404 here, though anyone may read it. " +
      'While an open order holds the animal its status follows the order: changing it is a 409, other fields may change. ' +
      'Send the `ETag` you read as `If-Match` so that a change made since is never overwritten (412). ' +
      'The body may be sent as `application/json` or `application/merge-patch+json`.',
  })
  @ApiBody({ type: PetUpdateDto, required: true })
  @ApiIfMatchHeader('animal')
  @ApiResponse({
    status: 200,
    description: 'The animal, as changed (unchanged for `{}`)',
    type: PetDto,
    headers: ETAG_HEADER,
  })
  @ApiErrorResponses(...BODY_ERRORS, 'not_found', 'pet_has_open_order', 'precondition_failed')
  async update(
    @Param() params: PetIdParamsDto,
    @Body() body: PetUpdateDto,
    @IfMatch() ifMatch: IfMatchCondition | undefined,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PetAnswer> {
    const pet = await this.updatePet.execute(
      requesterOf(client),
      petIdOf(params),
      body,
      versionPreconditionOf(ifMatch),
    );
    void reply.header('etag', versionEntityTag(pet));
    return this.answerOne(client, pet);
  }

  @Delete(':petId')
  @HttpCode(204)
  @Stability('beta')
  @RequiresScope('pets:manage')
  @ApiOperation({
    operationId: 'deletePet',
    summary: 'Remove an animal from the catalogue',
    description:
      "Only the staff of the animal's organisation (another's is a 404). " +
      'From then on the animal is a 404 to every operation on it and absent from listings and the inventory; ' +
      'its orders stay readable, naming it; its id is never given again. An animal an open order holds cannot be removed (409).',
  })
  @ApiIfMatchHeader('animal')
  @ApiResponse({ status: 204, description: 'Removed' })
  @ApiErrorResponses('validation_failed', 'not_found', 'pet_has_open_order', 'precondition_failed')
  async delete(
    @Param() params: PetIdParamsDto,
    @IfMatch() ifMatch: IfMatchCondition | undefined,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<void> {
    await this.deletePet.execute(
      requesterOf(client),
      petIdOf(params),
      versionPreconditionOf(ifMatch),
    );
  }

  /** One pet as its requester reads it: with `openApplications` for the staff reviewing them. */
  private async answerOne(client: ApiClient, pet: Pet): Promise<PetAnswer> {
    const [answer] = await this.showOpenApplications.execute(requesterOf(client), [pet]);
    return answer;
  }
}
