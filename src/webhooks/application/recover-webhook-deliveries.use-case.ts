import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { EndpointId, WebhookEndpointNotFoundError } from '../domain/webhook-endpoint';
import { WebhookEndpoints } from './webhook-endpoints';

@Injectable()
export class RecoverWebhookDeliveries {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  /** Sends again every delivery to the endpoint that failed for good since `since`. */
  async execute(requester: Requester, id: EndpointId, since: Date): Promise<void> {
    checkScope(['webhooks:manage'], requester.scopes);
    if (!(await this.endpoints.recover(requester.keyId, id, since))) {
      throw new WebhookEndpointNotFoundError(id);
    }
  }
}
