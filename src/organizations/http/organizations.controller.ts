import { Body, Controller, Get, Param, Patch, Query, Res } from '@nestjs/common';
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
import { requesterOf } from '../../platform/http/request/requester';
import { ApiNamedArrayResponse } from '../../platform/http/response/api-named-array-response.decorator';
import { nextPageLinkHeader } from '../../platform/http/response/next-page-link';
import {
  etagHeader,
  versionEntityTag,
  versionPreconditionOf,
} from '../../platform/http/response/version-entity-tag';
import {
  AcceptsMergePatch,
  ConditionalRead,
  RequiresScope,
  Stability,
} from '../../platform/http/route-facts/route-facts.decorators';
import { GetOrganization } from '../application/get-organization.use-case';
import { ListOrganizations } from '../application/list-organizations.use-case';
import { UpdateOrganization } from '../application/update-organization.use-case';
import { ListOrganizationsQueryDto } from './dto/list-organizations-query.dto';
import { OrganizationIdParamsDto, organizationIdOf } from './dto/organization-id.params.dto';
import { OrganizationUpdateDto } from './dto/organization-update.dto';
import { OrganizationDto } from './dto/organization.dto';
import { organizationPage } from './organization-page';

const ETAG_HEADER = etagHeader('organization');

@ApiTags('organizations')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1/organizations')
export class OrganizationsController {
  constructor(
    private readonly listOrganizations: ListOrganizations,
    private readonly getOrganization: GetOrganization,
    private readonly updateOrganization: UpdateOrganization,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ConditionalRead()
  @Stability('beta')
  @RequiresScope('pets:read')
  @ApiOperation({
    operationId: 'listOrganizations',
    summary: 'List the shelters',
    description:
      'Returns a page of organisations in ascending id order; `name` and `near` (with `radiusKm`) combine. ' +
      'With `near`, only those whose location is within the radius, each with `distanceKm`.',
  })
  @ApiNamedArrayResponse('Organizations', OrganizationDto, {
    status: 200,
    description: 'The list of organisations',
    headers: nextPageLinkHeader('organisations'),
  })
  @ApiErrorResponses('validation_failed')
  async list(
    @Query() query: ListOrganizationsQueryDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OrganizationDto[]> {
    const { organizations, link } = await organizationPage(
      this.listOrganizations,
      requesterOf(client),
      query,
      `${this.config.http.publicBaseUrl}/organizations`,
    );
    if (link) void reply.header('link', link);
    return organizations;
  }

  @Get(':organizationId')
  @ConditionalRead()
  @Stability('beta')
  @RequiresScope('pets:read')
  @ApiOperation({ operationId: 'getOrganization', summary: 'Fetch one shelter' })
  @ApiResponse({
    status: 200,
    description: 'The organisation',
    type: OrganizationDto,
    headers: ETAG_HEADER,
  })
  @ApiErrorResponses('validation_failed', 'not_found')
  async get(
    @Param() params: OrganizationIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OrganizationDto> {
    const organization = await this.getOrganization.execute(
      requesterOf(client),
      organizationIdOf(params),
    );
    void reply.header('etag', versionEntityTag(organization));
    return OrganizationDto.of(organization);
  }

  @Patch(':organizationId')
  @Stability('beta')
  @RequiresScope('organization:manage')
  @AcceptsMergePatch()
  @ApiOperation({
    operationId: 'updateOrganization',
    summary: "Correct the key's own organisation",
    description:
      'Changes the members given (JSON Merge Patch, RFC 7396: absent members are kept, `null` clears an optional one, ' +
      "`address` and `location` merge member by member). Only the key's own organisation: another is a 404. " +
      'Send the `ETag` you read as `If-Match` so that a change made since is never overwritten (412).',
  })
  @ApiBody({ type: OrganizationUpdateDto, required: true })
  @ApiIfMatchHeader('organisation')
  @ApiResponse({
    status: 200,
    description: 'The organisation, as changed',
    type: OrganizationDto,
    headers: ETAG_HEADER,
  })
  @ApiErrorResponses(...BODY_ERRORS, 'not_found', 'already_exists', 'precondition_failed')
  async update(
    @Param() params: OrganizationIdParamsDto,
    @Body() body: OrganizationUpdateDto,
    @IfMatch() ifMatch: IfMatchCondition | undefined,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OrganizationDto> {
    const organization = await this.updateOrganization.execute(
      requesterOf(client),
      organizationIdOf(params),
      body,
      versionPreconditionOf(ifMatch),
    );
    void reply.header('etag', versionEntityTag(organization));
    return OrganizationDto.of(organization);
  }
}
