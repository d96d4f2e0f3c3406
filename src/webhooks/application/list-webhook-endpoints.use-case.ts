import { Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, keysetPage, KeysetPage } from '../../common/paging';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { EndpointId, WebhookEndpoint } from '../domain/webhook-endpoint';
import { WebhookEndpoints } from './webhook-endpoints';

@Injectable()
export class ListWebhookEndpoints {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  /** The key's own endpoints, ascending id. */
  async execute(
    requester: Requester,
    { after = 0, limit = DEFAULT_PAGE_SIZE }: { after?: EndpointId; limit?: number },
  ): Promise<KeysetPage<WebhookEndpoint>> {
    checkScope(['webhooks:manage'], requester.scopes);
    return keysetPage(await this.endpoints.page(requester.keyId, after, limit + 1), limit);
  }
}
