import { Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE } from '../../common/paging';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { EndpointId, WebhookEndpointNotFoundError } from '../domain/webhook-endpoint';
import { DeliveryAttempt, WebhookEndpoints } from './webhook-endpoints';

export interface AttemptPage {
  attempts: DeliveryAttempt[];
  /** Attempt id to pass as `after` for the next (older) page, or null when this is the last. */
  nextAfter: number | null;
}

@Injectable()
export class ListWebhookDeliveries {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  /** The endpoint's delivery attempts, newest first; never a response body. */
  async execute(
    requester: Requester,
    id: EndpointId,
    { after, limit = DEFAULT_PAGE_SIZE }: { after?: number; limit?: number },
  ): Promise<AttemptPage> {
    checkScope(['webhooks:manage'], requester.scopes);
    const rows = await this.endpoints.attempts(requester.keyId, id, after, limit + 1);
    if (!rows) throw new WebhookEndpointNotFoundError(id);
    const attempts = rows.slice(0, limit);
    return {
      attempts,
      nextAfter: rows.length > limit ? attempts[attempts.length - 1].id : null,
    };
  }
}
