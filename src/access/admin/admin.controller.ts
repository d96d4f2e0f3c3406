import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ApiKeys, ApiKeyView } from '@pet-adoption/api-keys';
import {
  ApiErrorResponses,
  BODY_ERRORS,
} from '../../platform/http/errors/api-error-responses.decorator';
import { ApiError } from '../../platform/http/errors/api-error';
import { AdminApi } from '../../platform/http/admin/admin-api.decorator';
import {
  ApiIdempotencyKeyHeader,
  IdempotencyKey,
  IdempotencyKeyHeader,
} from '../../platform/http/request/idempotency-key';
import { fingerprintOf, Idempotency } from '../../platform/idempotency/idempotency';
import { ApiKeyIdParamsDto } from './dto/api-key-id.params.dto';
import { ApiKeyDto, IssuedApiKeyDto } from './dto/api-key.dto';
import { IssueApiKeyDto } from './dto/issue-api-key.dto';
import { Scope } from '../../common/scopes';
import { KeyBans } from '../key-bans';
import { instantOf } from '../../common/date-time';

/** The foreign key of a key's organisation (StaffKeysOfTheHouse1795230200000). */
const ORGANIZATION_OF_KEY = 'api_keys_organization_fk';

/** The admin API for API keys: outside /v1, behind ADMIN_TOKEN instead of an API key. */
@AdminApi()
@Controller('admin/api-keys')
export class AdminController {
  constructor(
    private readonly keys: ApiKeys,
    private readonly bans: KeyBans,
    private readonly idempotency: Idempotency,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'issueApiKey',
    summary: 'Issue an API key (the only time it is shown)',
  })
  @ApiResponse({ status: 201, type: IssuedApiKeyDto })
  @ApiIdempotencyKeyHeader('key')
  @ApiErrorResponses(...BODY_ERRORS, 'idempotency_key_reused')
  async issue(
    @Body() body: IssueApiKeyDto,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IssuedApiKeyDto> {
    if (key === undefined) return this.issued(body);
    // A retry gets the secret of the key the first request issued, recorded sealed.
    const { value, replayed } = await this.idempotency.onceSealed(
      { scope: 'admin', key, fingerprint: fingerprintOf([body]) },
      () => this.issued(body),
    );
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return value;
  }

  private async issued(body: IssueApiKeyDto): Promise<IssuedApiKeyDto> {
    const { organizationId, expiresAt } = body;
    const { apiKey, key } = await this.keys
      .issue({
        ...body,
        limits: body.limits && { ...body.limits },
        organizationId: organizationId === undefined ? null : String(organizationId),
        expiresAt: expiresAt === undefined ? null : instantOf(expiresAt),
      })
      .catch((error: unknown) => {
        const { code, constraint } = error as { code?: string; constraint?: string };
        if (code === '23503' && constraint === ORGANIZATION_OF_KEY) {
          throw new ApiError(
            'validation_failed',
            `organizationId ${organizationId} names no organization: create it first (POST /admin/organizations).`,
          );
        }
        throw error;
      });
    const { id, name, plan, limits, prefix, createdAt } = apiKey;
    return {
      id: Number(id),
      name,
      plan,
      limits,
      scopes: apiKey.scopes as Scope[],
      organizationId: apiKey.organizationId === null ? null : Number(apiKey.organizationId),
      expiresAt: apiKey.expiresAt?.toISOString() ?? null,
      prefix,
      key,
      createdAt: createdAt.toISOString(),
    };
  }

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'List API keys (never the keys themselves)',
  })
  @ApiResponse({ status: 200, type: ApiKeyDto, isArray: true })
  async list(): Promise<ApiKeyDto[]> {
    const keys = await this.keys.list();
    return Promise.all(
      keys.map(async (key) => this.view(key, await this.bans.bannedUntil(key.id))),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key: refused everywhere within 5 s',
  })
  @ApiResponse({ status: 204, description: 'Revoked' })
  @ApiErrorResponses('validation_failed')
  async revoke(@Param() { id }: ApiKeyIdParamsDto): Promise<void> {
    await this.keys.revoke(id);
  }

  @Delete(':id/ban')
  @HttpCode(204)
  @ApiOperation({ operationId: 'liftApiKeyBan', summary: 'Lift the temporary ban of an API key' })
  @ApiResponse({ status: 204, description: 'The key is no longer banned' })
  @ApiErrorResponses('validation_failed')
  async liftBan(@Param() { id }: ApiKeyIdParamsDto): Promise<void> {
    const known = (await this.keys.list()).some((key) => key.id === id);
    if (!known) throw new ApiError('not_found', `No API key with id ${id}.`);
    await this.bans.lift(id);
  }

  private view(key: ApiKeyView, bannedUntil: Date | null): ApiKeyDto {
    const iso = (date: Date | null) => date?.toISOString() ?? null;
    return {
      id: Number(key.id),
      name: key.name,
      plan: key.plan,
      limits: key.limits,
      scopes: key.scopes as Scope[],
      organizationId: key.organizationId === null ? null : Number(key.organizationId),
      expiresAt: iso(key.expiresAt),
      prefix: key.prefix,
      createdAt: key.createdAt.toISOString(),
      revokedAt: iso(key.revokedAt),
      lastUsedAt: iso(key.lastUsedAt),
      previousSecretValidUntil: iso(key.previousSecretValidUntil),
      bannedUntil: iso(bannedUntil),
    };
  }
}
