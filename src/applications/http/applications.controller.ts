import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiClient, AuthenticatedClient } from '@pet-adoption/api-keys';
import type { FastifyReply } from 'fastify';
import { AppConfig } from '../../platform/config/app-config';
import {
  ApiErrorResponses,
  BODY_ERRORS,
  KEY_PROTECTED_ERRORS,
} from '../../platform/http/errors/api-error-responses.decorator';
import type { IfMatchCondition } from '../../platform/http/request/entity-tags';
import { ApiIfMatchHeader, IfMatch } from '../../platform/http/request/if-match';
import {
  ApiIdempotencyKeyHeader,
  IdempotencyKey,
  IdempotencyKeyHeader,
} from '../../platform/http/request/idempotency-key';
import { requesterOf } from '../../platform/http/request/requester';
import { ApiNamedArrayResponse } from '../../platform/http/response/api-named-array-response.decorator';
import { nextPageLink, nextPageLinkHeader } from '../../platform/http/response/next-page-link';
import {
  etagHeader,
  versionEntityTag,
  versionPreconditionOf,
} from '../../platform/http/response/version-entity-tag';
import {
  AcceptsMergePatch,
  RequiresScope,
  Stability,
} from '../../platform/http/route-facts/route-facts.decorators';
import { AddApplicationNote } from '../application/add-application-note.use-case';
import { EraseApplicant } from '../application/erase-applicant.use-case';
import { GetApplication } from '../application/get-application.use-case';
import { GetQuestionnaire } from '../application/get-questionnaire.use-case';
import { ListApplications } from '../application/list-applications.use-case';
import { PutQuestionnaire } from '../application/put-questionnaire.use-case';
import { SubmitApplication } from '../application/submit-application.use-case';
import { UpdateApplication } from '../application/update-application.use-case';
import { ApplicationNotFoundError, OrganizationNotFoundError } from '../domain/application.errors';
import { ApplicationDto, ApplicationNoteDto, QuestionnaireDto } from './dto/application.dto';
import {
  ApplicationIdParamsDto,
  ApplicationUpdateDto,
  ListApplicationsQueryDto,
  NewApplicationDto,
  NewApplicationNoteDto,
  OrganizationIdParamsDto,
  QuestionnaireUpdateDto,
} from './dto/application-requests.dto';
import { PetIdParamsDto, petIdOf } from './dto/pet-id.params.dto';

const MAX_ID = Number.MAX_SAFE_INTEGER;
/** An id as the path or query wrote it; above 2^53 - 1 no row can have it. */
const idOf = (text: string, missing: (id: string) => Error) => {
  if (BigInt(text) > BigInt(MAX_ID)) throw missing(text);
  return Number(text);
};
const ETAG = etagHeader('application');
const LOCATION = {
  Location: {
    description: 'Address of the new application',
    schema: { type: 'string', format: 'uri' },
  },
};

@ApiTags('applications')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1')
export class ApplicationsController {
  constructor(
    private readonly submitApplication: SubmitApplication,
    private readonly listApplications: ListApplications,
    private readonly getApplication: GetApplication,
    private readonly updateApplication: UpdateApplication,
    private readonly addNote: AddApplicationNote,
    private readonly eraseApplicant: EraseApplicant,
    private readonly getQuestionnaire: GetQuestionnaire,
    private readonly putQuestionnaire: PutQuestionnaire,
    private readonly config: AppConfig,
  ) {}

  @Post('pets/:petId/applications')
  @HttpCode(201)
  @Stability('beta')
  @RequiresScope('applications:write')
  @ApiOperation({
    operationId: 'submitApplication',
    summary: 'Apply to adopt an animal',
    description:
      "Answers the questionnaire of the pet's shelter (its latest version, kept with the application). " +
      'A key has at most as many open applications as its plan allows open orders (free 5, pro 50, business 500, enterprise its own): one more is a 409 `limit_reached`.',
  })
  @ApiResponse({ status: 201, description: 'Submitted', type: ApplicationDto, headers: LOCATION })
  @ApiIdempotencyKeyHeader('application')
  @ApiErrorResponses(
    ...BODY_ERRORS,
    'not_found',
    'pet_not_available',
    'duplicate_application',
    'limit_reached',
    'idempotency_key_reused',
  )
  async submit(
    @Param() params: PetIdParamsDto,
    @Body() body: NewApplicationDto,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ApplicationDto> {
    const idempotency = key === undefined ? undefined : { scope: `key:${client.keyId}`, key };
    const { application, replayed } = await this.submitApplication.execute(
      { ...requesterOf(client), openApplicationLimit: client.limits.openOrders },
      petIdOf(params),
      body,
      idempotency,
    );
    void reply.header(
      'location',
      `${this.config.http.publicBaseUrl}/applications/${application.id}`,
    );
    void reply.header('etag', versionEntityTag(application));
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return application as ApplicationDto;
  }

  @Get('applications')
  @Stability('beta')
  @RequiresScope('applications:write', 'applications:manage')
  @ApiOperation({
    operationId: 'listApplications',
    summary: 'List applications',
    description:
      "Staff (`applications:manage`): their organisation's; any other key: its own. Ascending id, keyset `Link`.",
  })
  @ApiNamedArrayResponse('Applications', ApplicationDto, {
    status: 200,
    description: 'A page of applications',
    headers: nextPageLinkHeader('applications'),
  })
  @ApiErrorResponses('validation_failed')
  async list(
    @Query() query: ListApplicationsQueryDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ApplicationDto[]> {
    const clamp = (text: string) => Math.min(Number(text), MAX_ID);
    const page = await this.listApplications.execute(requesterOf(client), {
      status: query.status,
      petId: query.petId === undefined ? undefined : clamp(query.petId),
      assignedToMe: query.assignee === 'me',
      after: query.after === undefined ? undefined : clamp(query.after),
      limit: query.limit === undefined ? undefined : Number(query.limit),
    });
    if (page.nextAfter !== null) {
      const { limit, status, petId, assignee } = query;
      void reply.header(
        'link',
        nextPageLink(`${this.config.http.publicBaseUrl}/applications`, {
          limit,
          status,
          petId,
          assignee,
          after: String(page.nextAfter),
        }),
      );
    }
    return page.items as ApplicationDto[];
  }

  @Get('applications/:applicationId')
  @Stability('beta')
  @RequiresScope('applications:write', 'applications:manage')
  @ApiOperation({
    operationId: 'getApplication',
    summary: 'Fetch one application',
    description: "To its applicant's key and the staff of the pet's shelter; anyone else: 404.",
  })
  @ApiResponse({ status: 200, description: 'The application', type: ApplicationDto, headers: ETAG })
  @ApiErrorResponses('validation_failed', 'not_found')
  async get(
    @Param() params: ApplicationIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ApplicationDto> {
    const application = await this.getApplication.execute(requesterOf(client), this.id(params));
    void reply.header('etag', versionEntityTag(application));
    return application as ApplicationDto;
  }

  @Patch('applications/:applicationId')
  @Stability('beta')
  @RequiresScope('applications:write', 'applications:manage')
  @AcceptsMergePatch()
  @ApiOperation({
    operationId: 'updateApplication',
    summary: 'Review, decide, assign, withdraw or correct an application',
    description:
      'Staff: `status` under_review, approved (the animal held by an order for the applicant, `orderId`) or denied (with a `decisionReason`), `decisionReason`, `assigneeKeyId`. ' +
      "The applicant's key: `status` withdrawn (its order cancelled), or its `applicant` and `answers` while submitted. Any other move: 409 `invalid_transition`.",
  })
  @ApiBody({ type: ApplicationUpdateDto, required: true })
  @ApiIfMatchHeader('application')
  @ApiResponse({
    status: 200,
    description: 'The application, as changed',
    type: ApplicationDto,
    headers: ETAG,
  })
  @ApiErrorResponses(
    ...BODY_ERRORS,
    'not_found',
    'invalid_transition',
    'pet_not_available',
    'precondition_failed',
  )
  async update(
    @Param() params: ApplicationIdParamsDto,
    @Body() body: ApplicationUpdateDto,
    @IfMatch() ifMatch: IfMatchCondition | undefined,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ApplicationDto> {
    const application = await this.updateApplication.execute(
      requesterOf(client),
      this.id(params),
      body,
      versionPreconditionOf(ifMatch),
    );
    void reply.header('etag', versionEntityTag(application));
    return application as ApplicationDto;
  }

  @Post('applications/:applicationId/notes')
  @HttpCode(201)
  @Stability('beta')
  @RequiresScope('applications:manage')
  @ApiOperation({
    operationId: 'addApplicationNote',
    summary: 'Note something on an application (staff only)',
  })
  @ApiResponse({ status: 201, description: 'The note', type: ApplicationNoteDto })
  @ApiIdempotencyKeyHeader('note')
  @ApiErrorResponses(...BODY_ERRORS, 'not_found', 'idempotency_key_reused')
  async note(
    @Param() params: ApplicationIdParamsDto,
    @Body() body: NewApplicationNoteDto,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ApplicationNoteDto> {
    const idempotency = key === undefined ? undefined : { scope: `key:${client.keyId}`, key };
    const { note, replayed } = await this.addNote.execute(
      requesterOf(client),
      this.id(params),
      body.text,
      idempotency,
    );
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return note;
  }

  @Delete('applications/:applicationId/applicant')
  @HttpCode(204)
  @Stability('beta')
  @RequiresScope('applications:write', 'applications:manage')
  @ApiOperation({
    operationId: 'eraseApplicant',
    summary: "Erase an applicant's personal data, for good",
    description:
      'Name, email, phone, address and every text answer become null; status, dates and decision stay. An open application is closed (`erased`).',
  })
  @ApiResponse({ status: 204, description: 'Erased' })
  @ApiErrorResponses('validation_failed', 'not_found')
  async erase(
    @Param() params: ApplicationIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<void> {
    await this.eraseApplicant.execute(requesterOf(client), this.id(params));
  }

  @Get('organizations/:organizationId/questionnaire')
  @Stability('beta')
  @RequiresScope('pets:read')
  @ApiOperation({ operationId: 'getQuestionnaire', summary: "A shelter's questions to applicants" })
  @ApiResponse({
    status: 200,
    description: 'The latest version',
    type: QuestionnaireDto,
    headers: etagHeader('questionnaire'),
  })
  @ApiErrorResponses('validation_failed', 'not_found')
  async questionnaire(
    @Param() params: OrganizationIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<QuestionnaireDto> {
    const organization = idOf(params.organizationId, (id) => new OrganizationNotFoundError(id));
    const questionnaire = await this.getQuestionnaire.execute(requesterOf(client), organization);
    void reply.header('etag', versionEntityTag(questionnaire));
    return questionnaire as QuestionnaireDto;
  }

  @Put('organizations/:organizationId/questionnaire')
  @Stability('beta')
  @RequiresScope('organization:manage')
  @ApiOperation({
    operationId: 'putQuestionnaire',
    summary: "Write the next version of the key's own shelter's questionnaire",
    description:
      'Applications keep the version they answered. Send the `ETag` read as `If-Match` (412 otherwise).',
  })
  @ApiIfMatchHeader('questionnaire')
  @ApiResponse({
    status: 200,
    description: 'The new version',
    type: QuestionnaireDto,
    headers: etagHeader('questionnaire'),
  })
  @ApiErrorResponses(...BODY_ERRORS, 'not_found', 'precondition_failed')
  async putQuestions(
    @Param() params: OrganizationIdParamsDto,
    @Body() body: QuestionnaireUpdateDto,
    @IfMatch() ifMatch: IfMatchCondition | undefined,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<QuestionnaireDto> {
    const organization = idOf(params.organizationId, (id) => new OrganizationNotFoundError(id));
    const questionnaire = await this.putQuestionnaire.execute(
      requesterOf(client),
      organization,
      body.questions,
      versionPreconditionOf(ifMatch),
    );
    void reply.header('etag', versionEntityTag(questionnaire));
    return questionnaire as QuestionnaireDto;
  }

  private id(params: ApplicationIdParamsDto): number {
    return idOf(params.applicationId, (id) => new ApplicationNotFoundError(id));
  }
}
