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
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiClient, AuthenticatedClient } from '@pet-adoption/api-keys';
import type { FastifyReply } from 'fastify';
import { instantOf } from '../../common/date-time';
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
import { PageQueryDto } from '../../platform/http/request/page-query.dto';
import { ApiNamedArrayResponse } from '../../platform/http/response/api-named-array-response.decorator';
import { nextPageLink, nextPageLinkHeader } from '../../platform/http/response/next-page-link';
import {
  AcceptsMergePatch,
  RequiresScope,
  Stability,
} from '../../platform/http/route-facts/route-facts.decorators';
import { CreateWebhookEndpoint } from '../application/create-webhook-endpoint.use-case';
import { DeleteWebhookEndpoint } from '../application/delete-webhook-endpoint.use-case';
import { GetWebhookEndpoint } from '../application/get-webhook-endpoint.use-case';
import { ListWebhookDeliveries } from '../application/list-webhook-deliveries.use-case';
import { ListWebhookEndpoints } from '../application/list-webhook-endpoints.use-case';
import { PingWebhookEndpoint } from '../application/ping-webhook-endpoint.use-case';
import { RecoverWebhookDeliveries } from '../application/recover-webhook-deliveries.use-case';
import { RotateWebhookSecret } from '../application/rotate-webhook-secret.use-case';
import { UpdateWebhookEndpoint } from '../application/update-webhook-endpoint.use-case';
import { MAX_ENDPOINT_ID } from '../domain/webhook-endpoint';
import {
  NewWebhookEndpointDto,
  WebhookEndpointUpdateDto,
  WebhookRecoveryDto,
} from './dto/new-webhook-endpoint.dto';
import { WebhookDeliveryAttemptDto } from './dto/webhook-delivery-attempt.dto';
import { EndpointCreationBudgetGuard } from './endpoint-creation-budget.guard';
import { endpointIdOf, WebhookEndpointIdParamsDto } from './dto/webhook-endpoint-id.params.dto';
import {
  CreatedWebhookEndpointDto,
  WebhookEndpointDto,
  WebhookSecretDto,
} from './dto/webhook-endpoint.dto';
import { requesterOf } from '../../platform/http/request/requester';

/** Beyond every id there can be: cursors past it match nothing, as past any id. */
const clamped = (text: string) => Math.min(Number(text), MAX_ENDPOINT_ID + 1);

/** The key's own webhook endpoints (docs/api.md, "Webhooks"): each needs `webhooks:manage`. */
@ApiTags('events')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(
    private readonly createEndpoint: CreateWebhookEndpoint,
    private readonly listEndpoints: ListWebhookEndpoints,
    private readonly getEndpoint: GetWebhookEndpoint,
    private readonly updateEndpoint: UpdateWebhookEndpoint,
    private readonly deleteEndpoint: DeleteWebhookEndpoint,
    private readonly rotateSecret: RotateWebhookSecret,
    private readonly pingEndpoint: PingWebhookEndpoint,
    private readonly listDeliveries: ListWebhookDeliveries,
    private readonly recoverDeliveries: RecoverWebhookDeliveries,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @Stability('beta')
  @RequiresScope('webhooks:manage')
  @UseGuards(EndpointCreationBudgetGuard)
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      'Events its key may read, of the types it names, are POSTed to it signed as Standard Webhooks says. The answer carries the secret, once. A key has at most as many endpoints as its plan allows (free 3, pro 10, business 50, enterprise its own `limits.webhookEndpoints`): one more is a 409 `limit_reached`. Creations have their own budget, 10 a minute per key by default: beyond it, a 429 with `Retry-After`.',
  })
  @ApiResponse({
    status: 201,
    description: 'Endpoint registered, with its secret',
    type: CreatedWebhookEndpointDto,
    headers: {
      Location: {
        description: 'Address of the endpoint',
        schema: { type: 'string', format: 'uri' },
      },
    },
  })
  @ApiIdempotencyKeyHeader('endpoint')
  @ApiErrorResponses(...BODY_ERRORS, 'limit_reached', 'idempotency_key_reused')
  async create(
    @Body() body: NewWebhookEndpointDto,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatedWebhookEndpointDto> {
    const idempotency = key === undefined ? undefined : { scope: `key:${client.keyId}`, key };
    const { endpoint, secret, replayed } = await this.createEndpoint.execute(
      { ...requesterOf(client), endpointLimit: client.limits.webhookEndpoints },
      body,
      idempotency,
    );
    const address = `${this.config.http.publicBaseUrl}/webhook-endpoints/${endpoint.id}`;
    void reply.header('location', address);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return { ...WebhookEndpointDto.of(endpoint), secret };
  }

  @Get()
  @Stability('beta')
  @RequiresScope('webhooks:manage')
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: "Returns a page of the key's own endpoints in ascending id order.",
  })
  @ApiNamedArrayResponse('WebhookEndpoints', WebhookEndpointDto, {
    status: 200,
    description: 'The list of endpoints',
    headers: nextPageLinkHeader('endpoints'),
  })
  @ApiErrorResponses('validation_failed')
  async list(
    @Query() query: PageQueryDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookEndpointDto[]> {
    const page = await this.listEndpoints.execute(requesterOf(client), {
      after: query.after === undefined ? undefined : clamped(query.after),
      limit: query.limit === undefined ? undefined : Number(query.limit),
    });
    if (page.nextAfter !== null) {
      const address = `${this.config.http.publicBaseUrl}/webhook-endpoints`;
      void reply.header(
        'link',
        nextPageLink(address, { limit: query.limit, after: String(page.nextAfter) }),
      );
    }
    return page.items.map(WebhookEndpointDto.of);
  }

  @Get(':endpointId')
  @Stability('beta')
  @RequiresScope('webhooks:manage')
  @ApiOperation({
    operationId: 'getWebhookEndpoint',
    summary: 'Fetch one webhook endpoint',
    description: "Another key's endpoint is a 404.",
  })
  @ApiResponse({ status: 200, description: 'The endpoint', type: WebhookEndpointDto })
  @ApiErrorResponses('validation_failed', 'not_found')
  async get(
    @Param() params: WebhookEndpointIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.of(
      await this.getEndpoint.execute(requesterOf(client), endpointIdOf(params)),
    );
  }

  @Patch(':endpointId')
  @Stability('beta')
  @RequiresScope('webhooks:manage')
  @AcceptsMergePatch()
  @ApiOperation({
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    description:
      'Any of `url`, `events`, `description`, `enabled`; absent members are kept. Re-enabling resumes its waiting deliveries. The body may be sent as `application/json` or `application/merge-patch+json`.',
  })
  @ApiBody({ type: WebhookEndpointUpdateDto, required: true })
  @ApiResponse({ status: 200, description: 'The endpoint, changed', type: WebhookEndpointDto })
  @ApiErrorResponses(...BODY_ERRORS, 'not_found')
  async update(
    @Param() params: WebhookEndpointIdParamsDto,
    @Body() body: WebhookEndpointUpdateDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.of(
      await this.updateEndpoint.execute(requesterOf(client), endpointIdOf(params), body),
    );
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @Stability('beta')
  @RequiresScope('webhooks:manage')
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is sent to it; its waiting deliveries are dropped.',
  })
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiErrorResponses('validation_failed', 'not_found')
  async delete(
    @Param() params: WebhookEndpointIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<void> {
    await this.deleteEndpoint.execute(requesterOf(client), endpointIdOf(params));
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  @Stability('beta')
  @RequiresScope('webhooks:manage')
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: "Rotate a webhook endpoint's secret",
    description:
      'Deliveries are signed with the new secret from now on, and for 24 hours with the previous one too (two signatures).',
  })
  @ApiResponse({ status: 200, description: 'The new secret, shown once', type: WebhookSecretDto })
  @ApiErrorResponses('validation_failed', 'not_found')
  async rotate(
    @Param() params: WebhookEndpointIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<WebhookSecretDto> {
    return { secret: await this.rotateSecret.execute(requesterOf(client), endpointIdOf(params)) };
  }

  @Post(':endpointId/ping')
  @HttpCode(202)
  @Stability('beta')
  @RequiresScope('webhooks:manage')
  @ApiOperation({
    operationId: 'pingWebhookEndpoint',
    summary: 'Send a test event to a webhook endpoint',
    description:
      'A `webhook.test` event, to this endpoint only, delivered as every event is (signed, retried, listed among its deliveries).',
  })
  @ApiResponse({ status: 202, description: 'The test event is queued' })
  @ApiErrorResponses('validation_failed', 'not_found')
  async ping(
    @Param() params: WebhookEndpointIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<void> {
    await this.pingEndpoint.execute(requesterOf(client), endpointIdOf(params));
  }

  @Get(':endpointId/deliveries')
  @Stability('beta')
  @RequiresScope('webhooks:manage')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "List a webhook endpoint's delivery attempts",
    description:
      'Newest first; `after` (an attempt id, set by the `next` link) pages to older ones. Never a response body.',
  })
  @ApiNamedArrayResponse('WebhookDeliveryAttempts', WebhookDeliveryAttemptDto, {
    status: 200,
    description: 'The attempts',
    headers: nextPageLinkHeader('attempts'),
  })
  @ApiErrorResponses('validation_failed', 'not_found')
  async deliveries(
    @Param() params: WebhookEndpointIdParamsDto,
    @Query() query: PageQueryDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookDeliveryAttemptDto[]> {
    const id = endpointIdOf(params);
    const page = await this.listDeliveries.execute(requesterOf(client), id, {
      after: query.after === undefined ? undefined : clamped(query.after),
      limit: query.limit === undefined ? undefined : Number(query.limit),
    });
    if (page.nextAfter !== null) {
      const address = `${this.config.http.publicBaseUrl}/webhook-endpoints/${id}/deliveries`;
      void reply.header(
        'link',
        nextPageLink(address, { limit: query.limit, after: String(page.nextAfter) }),
      );
    }
    return page.attempts;
  }

  @Post(':endpointId/recover')
  @HttpCode(202)
  @Stability('beta')
  @RequiresScope('webhooks:manage')
  @ApiOperation({
    operationId: 'recoverWebhookDeliveries',
    summary: 'Send failed deliveries again',
    description:
      'Every delivery to this endpoint that failed for good and was created since `since` is attempted again, from the start of the retry schedule, with the same `webhook-id`.',
  })
  @ApiResponse({ status: 202, description: 'The deliveries are queued again' })
  @ApiErrorResponses(...BODY_ERRORS, 'not_found')
  async recover(
    @Param() params: WebhookEndpointIdParamsDto,
    @Body() body: WebhookRecoveryDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<void> {
    await this.recoverDeliveries.execute(
      requesterOf(client),
      endpointIdOf(params),
      instantOf(body.since),
    );
  }
}
