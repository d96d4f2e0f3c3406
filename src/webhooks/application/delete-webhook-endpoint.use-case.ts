import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { EndpointId, WebhookEndpointNotFoundError } from '../domain/webhook-endpoint';
import { WebhookEndpoints } from './webhook-endpoints';

@Injectable()
export class DeleteWebhookEndpoint {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  /** Deletes the key's endpoint and its pending deliveries: nothing more is sent to it. */
  async execute(requester: Requester, id: EndpointId): Promise<void> {
    checkScope(['webhooks:manage'], requester.scopes);
    if (!(await this.endpoints.delete(requester.keyId, id))) {
      throw new WebhookEndpointNotFoundError(id);
    }
  }
}
