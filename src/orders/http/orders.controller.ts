import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiClient, AuthenticatedClient } from '@pet-adoption/api-keys';
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
import { ApiNamedArrayResponse } from '../../platform/http/response/api-named-array-response.decorator';
import {
  AcceptsMergePatch,
  RequiresScope,
  Stability,
} from '../../platform/http/route-facts/route-facts.decorators';
import { GetInventory } from '../application/get-inventory.use-case';
import { GetOrder } from '../application/get-order.use-case';
import { ListOrders } from '../application/list-orders.use-case';
import { PlaceOrder } from '../application/place-order.use-case';
import { UpdateOrder } from '../application/update-order.use-case';
import { MAX_ORDER_ID } from '../domain/order';
import { InventoryDto, InventoryQueryDto } from './dto/inventory.dto';
import { ListOrdersQueryDto } from './dto/list-orders-query.dto';
import { NewOrderDto } from './dto/new-order.dto';
import { OrderIdParamsDto, orderIdOf } from './dto/order-id.params.dto';
import { OrderUpdateDto } from './dto/order-update.dto';
import { OrderDto } from './dto/order.dto';
import { requesterOf } from '../../platform/http/request/requester';

/** Beyond every id there can be: filters and cursors past it match nothing, as past any id. */
const clamped = (text: string) => Math.min(Number(text), MAX_ORDER_ID + 1);

@ApiTags('store')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1/store')
export class OrdersController {
  constructor(
    private readonly placeOrder: PlaceOrder,
    private readonly listOrders: ListOrders,
    private readonly getOrder: GetOrder,
    private readonly updateOrder: UpdateOrder,
    private readonly getInventory: GetInventory,
    private readonly config: AppConfig,
  ) {}

  @Post('orders')
  @HttpCode(201)
  @Stability('beta')
  @RequiresScope('orders:write')
  @ApiOperation({
    operationId: 'placeOrder',
    summary: 'Order an animal for adoption',
    description: 'The animal must be `available`; it is `pending` from then on.',
  })
  @ApiResponse({
    status: 201,
    description: 'Order placed',
    type: OrderDto,
    headers: {
      Location: {
        description: 'Address of the new order',
        schema: { type: 'string', format: 'uri' },
      },
    },
  })
  @ApiIdempotencyKeyHeader('order')
  @ApiErrorResponses(
    ...BODY_ERRORS,
    'not_found',
    'pet_not_available',
    'open_order_limit',
    'idempotency_key_reused',
  )
  async place(
    @Body() body: NewOrderDto,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OrderDto> {
    const idempotency = key === undefined ? undefined : { scope: `key:${client.keyId}`, key };
    const { order, replayed } = await this.placeOrder.execute(
      { ...requesterOf(client), openOrderLimit: client.limits.openOrders },
      body.petId,
      idempotency,
    );
    void reply.header('location', `${this.config.http.publicBaseUrl}/store/orders/${order.id}`);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return OrderDto.of(order);
  }

  @Get('orders')
  @Stability('beta')
  @RequiresScope('orders:read', 'orders:manage')
  @ApiOperation({
    operationId: 'listOrders',
    summary: 'List orders',
    description:
      "Returns a page of the key's own orders (and, with `orders:manage`, those for its organisation's pets) in ascending id order.",
  })
  @ApiNamedArrayResponse('Orders', OrderDto, {
    status: 200,
    description: 'The list of orders',
    headers: nextPageLinkHeader('orders'),
  })
  @ApiErrorResponses('validation_failed')
  async list(
    @Query() query: ListOrdersQueryDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OrderDto[]> {
    const limit = query.limit === undefined ? undefined : Number(query.limit);
    const page = await this.listOrders.execute(requesterOf(client), {
      status: query.status,
      petId: query.petId === undefined ? undefined : clamped(query.petId),
      after: query.after === undefined ? undefined : clamped(query.after),
      limit,
    });
    if (page.nextAfter !== null) {
      const { status, petId } = query;
      const address = `${this.config.http.publicBaseUrl}/store/orders`;
      void reply.header(
        'link',
        nextPageLink(address, { limit: query.limit, status, petId, after: String(page.nextAfter) }),
      );
    }
    return page.orders.map(OrderDto.of);
  }

  @Get('orders/:orderId')
  @Stability('beta')
  @RequiresScope('orders:read', 'orders:manage')
  @ApiOperation({
    operationId: 'getOrder',
    summary: 'Fetch one order',
    description:
      "Another key's order is a 404 unless the key manages the orders of the pet's organisation.",
  })
  @ApiResponse({ status: 200, description: 'The order', type: OrderDto })
  @ApiErrorResponses('validation_failed', 'not_found')
  async get(
    @Param() params: OrderIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<OrderDto> {
    return OrderDto.of(await this.getOrder.execute(requesterOf(client), orderIdOf(params)));
  }

  @Patch('orders/:orderId')
  @Stability('beta')
  // Which of the two depends on the status asked for, checked once the body is read.
  @RequiresScope('orders:write', 'orders:manage')
  @AcceptsMergePatch()
  @ApiOperation({
    operationId: 'updateOrder',
    summary: 'Approve, deliver or cancel an order',
    description:
      'The animal follows its order: `sold` once delivered, `available` again once cancelled. ' +
      "Cancelling takes `orders:write` (own orders) or `orders:manage`; approving and delivering take `orders:manage` of the pet's organisation. " +
      'The body may be sent as `application/json` or `application/merge-patch+json`.',
  })
  @ApiBody({
    type: OrderUpdateDto,
    required: true,
  })
  @ApiResponse({ status: 200, description: 'The order, changed', type: OrderDto })
  @ApiErrorResponses(...BODY_ERRORS, 'not_found', 'invalid_transition')
  async update(
    @Param() params: OrderIdParamsDto,
    @Body() body: OrderUpdateDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<OrderDto> {
    const order = await this.updateOrder.execute(
      requesterOf(client),
      orderIdOf(params),
      body.status,
    );
    return OrderDto.of(order);
  }

  @Get('inventory')
  @Stability('beta')
  @RequiresScope('pets:read')
  @ApiOperation({
    operationId: 'getInventory',
    summary: 'Count the animals by status',
    description:
      "Exact counts, as of the request: every organisation's animals, or (v1.4) with `organizationId` one organisation's.",
  })
  @ApiResponse({ status: 200, description: 'Animals by status', type: InventoryDto })
  @ApiErrorResponses('validation_failed')
  getInventoryCounts(
    @Query() query: InventoryQueryDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<InventoryDto> {
    const { organizationId } = query;
    return this.getInventory.execute(
      requesterOf(client),
      // Validated as at most 2^53 - 1: exact as a number.
      organizationId === undefined ? undefined : Number(organizationId),
    );
  }
}
