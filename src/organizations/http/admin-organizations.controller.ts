import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { OPERATOR } from '../../common/requester';
import { AppConfig } from '../../platform/config/app-config';
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
  @ApiErrorResponses(...BODY_ERRORS, 'already_exists')
  async create(
    @Body() body: NewOrganizationDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OrganizationDto> {
    const organization = await this.createOrganization.execute(body);
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
