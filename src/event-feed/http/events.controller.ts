import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiClient, AuthenticatedClient } from '@pet-adoption/api-keys';
import type { FastifyReply } from 'fastify';
import { eventReferenceOf } from '../../common/events/event-id';
import { AppConfig } from '../../platform/config/app-config';
import {
  ApiErrorResponses,
  KEY_PROTECTED_ERRORS,
} from '../../platform/http/errors/api-error-responses.decorator';
import { ApiNamedArrayResponse } from '../../platform/http/response/api-named-array-response.decorator';
import { nextPageLink, nextPageLinkHeader } from '../../platform/http/response/next-page-link';
import {
  RequiresScopeFrom,
  Stability,
} from '../../platform/http/route-facts/route-facts.decorators';
import { feedScopes, feedScopesDescription } from '../application/feed-reader';
import { GetEvent } from '../application/get-event.use-case';
import { ListEvents } from '../application/list-events.use-case';
import { EventIdParamsDto } from './dto/event-id.params.dto';
import { EventDto } from './dto/event.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { requesterOf } from '../../platform/http/request/requester';

@ApiTags('events')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1/events')
export class EventsController {
  constructor(
    private readonly listEvents: ListEvents,
    private readonly getEvent: GetEvent,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Stability('beta')
  @RequiresScopeFrom(feedScopes, feedScopesDescription)
  @ApiOperation({
    operationId: 'listEvents',
    summary: 'List events',
    description:
      'Returns a page of the events the key may read (as it may read their objects), in ascending id order.',
  })
  @ApiNamedArrayResponse('Events', EventDto, {
    status: 200,
    description: 'The list of events',
    headers: nextPageLinkHeader('events'),
  })
  @ApiErrorResponses('validation_failed')
  async list(
    @Query() query: ListEventsQueryDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<EventDto[]> {
    const page = await this.listEvents.execute(requesterOf(client), {
      after: query.after === undefined ? undefined : eventReferenceOf(query.after),
      type: query.type,
      limit: query.limit === undefined ? undefined : Number(query.limit),
    });
    if (page.nextAfter !== null) {
      const address = `${this.config.http.publicBaseUrl}/events`;
      const { limit, type } = query;
      void reply.header('link', nextPageLink(address, { limit, type, after: page.nextAfter }));
    }
    return page.events;
  }

  @Get(':eventId')
  @Stability('beta')
  @RequiresScopeFrom(feedScopes)
  @ApiOperation({
    operationId: 'getEvent',
    summary: 'Fetch one event',
    description: 'An event the key could not read is a 404, as one that does not exist.',
  })
  @ApiResponse({ status: 200, description: 'The event', type: EventDto })
  @ApiErrorResponses('validation_failed', 'not_found')
  get(
    @Param() params: EventIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<EventDto> {
    return this.getEvent.execute(requesterOf(client), params.eventId);
  }
}
