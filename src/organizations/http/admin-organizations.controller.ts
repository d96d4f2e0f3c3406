import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { OPERATOR } from '../../common/requester';
import { AppConfig } from '../../platform/config/app-config';
import {
  ApiIdempotencyKeyHeader,
  IdempotencyKey,
  IdempotencyKeyHeader,
} from '../../platform/http/request/idempotency-key';
import { AdminApi } from '../../platform/http/admin/admin-api.decorator';
import {
  ApiErrorResponses,
  BODY_ERRORS,
} from '../../platform/http/errors/api-error-responses.decorator';
import { nextPageLinkHeader } from '../../platform/http/response/next-page-link';
import { CreateOrganization } from '../application/create-organization.use-case';
import { ListOrganizations } from '../application/list-organizations.use-case';
import { ListOrganizationsQueryDto } from './dto/list-organizations-query.dto';
import { NewOrganizationDto } from './dto/new-organization.dto';
import { OrganizationDto } from './dto/organization.dto';
import { organizationPage } from './organization-page';

/** The admin API for organisations: the operator onboards shelters, then issues their keys. */
@AdminApi()
@Controller('admin/organizations')
export class AdminOrganizationsController {
  constructor(
    private readonly createOrganization: CreateOrganization,
    private readonly listOrganizations: ListOrganizations,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createOrganization',
    summary: 'Onboard a shelter: an organisation to issue staff keys in',
  })
  @ApiResponse({ status: 201, type: OrganizationDto })
  @ApiIdempotencyKeyHeader('organization')
  @ApiErrorResponses(...BODY_ERRORS, 'already_exists', 'idempotency_key_reused')
  async create(
    @Body() body: NewOrganizationDto,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OrganizationDto> {
    // The operator's keys are one client's: the admin token's.
    const organization = await this.createOrganization.execute(
      body,
      key === undefined ? undefined : { scope: 'admin', key },
    );
    if (organization.replayed) void reply.header('idempotent-replayed', 'true');
    void reply.header(
      'location',
      `${this.config.http.publicBaseUrl}/organizations/${organization.id}`,
    );
    return OrganizationDto.of(organization);
  }

  @Get()
  @ApiOperation({
    operationId: 'listAllOrganizations',
    summary: 'List the organisations, as listOrganizations does',
  })
  @ApiResponse({
    status: 200,
    type: OrganizationDto,
    isArray: true,
    headers: nextPageLinkHeader('organisations'),
  })
  @ApiErrorResponses('validation_failed')
  async list(
    @Query() query: ListOrganizationsQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OrganizationDto[]> {
    // The admin API is served beside /v1, at whatever address the operator reaches it by.
    const { organizations, link } = await organizationPage(
      this.listOrganizations,
      OPERATOR,
      query,
      '/admin/organizations',
    );
    if (link) void reply.header('link', link);
    return organizations;
  }
}
