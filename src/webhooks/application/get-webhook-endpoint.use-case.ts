import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import {
  EndpointId,
  WebhookEndpoint,
  WebhookEndpointNotFoundError,
} from '../domain/webhook-endpoint';
import { WebhookEndpoints } from './webhook-endpoints';

@Injectable()
export class GetWebhookEndpoint {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  async execute(requester: Requester, id: EndpointId): Promise<WebhookEndpoint> {
    checkScope(['webhooks:manage'], requester.scopes);
    // Another key's endpoint is not found: the same 404 as one that never existed.
    const endpoint = await this.endpoints.find(requester.keyId, id);
    if (!endpoint) throw new WebhookEndpointNotFoundError(id);
    return endpoint;
  }
}
