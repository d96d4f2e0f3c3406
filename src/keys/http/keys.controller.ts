import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiClient, AuthenticatedClient } from '@pet-adoption/api-keys';
import { rateLimitHeaders } from '@pet-adoption/rate-limit';
import type { FastifyReply } from 'fastify';
import { instantOf } from '../../common/date-time';
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
import { ReceivedAt } from '../../platform/http/request/received-at';
import { requesterOf } from '../../platform/http/request/requester';
import {
  AnyValidKey,
  RequiresScope,
  Stability,
  Uncounted,
} from '../../platform/http/route-facts/route-facts.decorators';
import { GetOwnKey } from '../application/get-own-key.use-case';
import { IssueOrganizationKey } from '../application/issue-organization-key.use-case';
import { ListOrganizationKeys } from '../application/list-organization-keys.use-case';
import { Usage } from '../application/organization-keys';
import { RevokeOrganizationKey } from '../application/revoke-organization-key.use-case';
import { RollKey } from '../application/roll-key.use-case';
import { KeyWithSecret } from '../domain/key';
import { KeyIdParamsDto } from './dto/key-id.params.dto';
import { KeyDto, KeyWithSecretDto, OwnKeyDto } from './dto/key.dto';
import { KeyRollDto, NewKeyDto } from './dto/new-key.dto';

const withSecret = ({ key, secret }: KeyWithSecret): KeyWithSecretDto => ({
  ...KeyDto.of(key),
  key: secret,
});

/** The rate-limit headers of a budget read without counting: as a counted answer would carry. */
function usageHeaders(usage: Usage): Record<string, string> {
  const windows = (['minute', 'day'] as const).map((name) => ({
    name,
    limit: usage[name].limit,
    remaining: usage[name].remaining,
    resetAt: usage[name].reset,
  }));
  return rateLimitHeaders(windows, Date.now());
}

/**
 * How often a key may ask about itself: not against its plan's budget (asking must not spend what
 * it asks about), but not unlimited either (CONTRACT.md, "Trust, round 4": 120 a minute per key).
 */
const OWN_KEY_READS_PER_MINUTE = 120;

/** An organisation's own keys, managed by its staff: issue, list, roll, revoke; and a key's own. */
@ApiTags('keys')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1/keys')
export class KeysController {
  constructor(
    private readonly listKeys: ListOrganizationKeys,
    private readonly issueKey: IssueOrganizationKey,
    private readonly rollKey: RollKey,
    private readonly revokeKey: RevokeOrganizationKey,
    private readonly getOwnKey: GetOwnKey,
  ) {}

  @Get()
  @Stability('beta')
  @RequiresScope('organization:manage')
  @ApiOperation({
    operationId: 'listOrganizationKeys',
    summary: "List the organisation's keys",
    description:
      "The keys of the calling key's organisation, revoked ones included; never a secret.",
  })
  @ApiResponse({ status: 200, type: KeyDto, isArray: true })
  async list(@AuthenticatedClient() client: ApiClient): Promise<KeyDto[]> {
    return (await this.listKeys.execute(requesterOf(client))).map(KeyDto.of);
  }

  @Post()
  @HttpCode(201)
  @Stability('beta')
  @RequiresScope('organization:manage')
  @ApiOperation({
    operationId: 'issueOrganizationKey',
    summary: 'Issue a key for the organisation',
    description:
      "A key of the calling key's organisation and plan, with scopes the calling key holds itself (more is a 403), " +
      'expiring no later than the calling key (its expiry when `expiresAt` is not given; a later one is a 400); ' +
      'its secret is shown in this answer only.',
  })
  @ApiResponse({ status: 201, type: KeyWithSecretDto })
  @ApiIdempotencyKeyHeader('key')
  @ApiErrorResponses(...BODY_ERRORS, 'idempotency_key_reused')
  async issue(
    @Body() body: NewKeyDto,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<KeyWithSecretDto> {
    const issued = await this.issueKey.execute(
      requesterOf(client),
      {
        name: body.name,
        scopes: body.scopes,
        expiresAt: body.expiresAt === undefined ? null : instantOf(body.expiresAt),
      },
      key === undefined ? undefined : { scope: `key:${client.keyId}`, key },
    );
    if (issued.replayed) void reply.header('idempotent-replayed', 'true');
    return withSecret(issued);
  }

  @Get('self')
  @Stability('beta')
  @AnyValidKey()
  @Uncounted({ name: 'getOwnKey', perMinute: OWN_KEY_READS_PER_MINUTE })
  @ApiOperation({
    operationId: 'getOwnKey',
    summary: 'The calling key, and what is left of its budget',
  })
  @ApiResponse({ status: 200, type: OwnKeyDto })
  async self(
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OwnKeyDto> {
    const { key, usage } = await this.getOwnKey.execute(requesterOf(client));
    const headers = usageHeaders(usage);
    for (const name in headers) void reply.header(name, headers[name]);
    const { id, name, plan, limits, scopes, organizationId, expiresAt } = KeyDto.of(key);
    return { id, name, plan, limits, scopes, organizationId, expiresAt, usage };
  }

  @Post(':keyId/roll')
  @HttpCode(200)
  @Stability('beta')
  @RequiresScope('organization:manage')
  @ApiOperation({
    operationId: 'rollKey',
    summary: 'Give a key a new secret',
    description:
      'The new secret is shown in this answer only; the old one keeps working for `overlapSeconds`, ' +
      "then is refused on every instance. Keys of the calling key's organisation only (another's is a 404; " +
      'an expired or revoked one too), whose scopes are all held by the calling key (else 403). ' +
      'A calling key that expires leaves the key expiring no later than itself. Of rolls of one key ' +
      'in flight together, one is answered 200 and the others 409 `conflict`, changing nothing.',
  })
  @ApiResponse({ status: 200, type: KeyWithSecretDto })
  @ApiIdempotencyKeyHeader('roll', 200)
  @ApiErrorResponses(...BODY_ERRORS, 'not_found', 'conflict', 'idempotency_key_reused')
  async roll(
    @Param() { keyId }: KeyIdParamsDto,
    @Body() body: KeyRollDto,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @AuthenticatedClient() client: ApiClient,
    @ReceivedAt() receivedAt: Date,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<KeyWithSecretDto> {
    const rolled = await this.rollKey.execute(
      requesterOf(client),
      keyId,
      body.overlapSeconds,
      receivedAt,
      key === undefined ? undefined : { scope: `key:${client.keyId}`, key },
    );
    if (rolled.replayed) void reply.header('idempotent-replayed', 'true');
    return withSecret(rolled);
  }

  @Delete(':keyId')
  @HttpCode(204)
  @Stability('beta')
  @RequiresScope('organization:manage')
  @ApiOperation({
    operationId: 'revokeOrganizationKey',
    summary: 'Revoke a key of the organisation',
    description:
      'Refused on every instance from then on; its placed orders are cancelled (`key_revoked`) within a minute. ' +
      "Keys of the calling key's organisation only (another's is a 404), whose scopes are all held by the calling key (else 403).",
  })
  @ApiResponse({ status: 204, description: 'Revoked' })
  @ApiErrorResponses('validation_failed', 'not_found')
  async revoke(
    @Param() { keyId }: KeyIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<void> {
    await this.revokeKey.execute(requesterOf(client), keyId);
  }
}
