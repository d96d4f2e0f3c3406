import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import {
  descriptionProblem,
  EndpointChanges,
  EndpointId,
  InvalidWebhookEndpointError,
  parsedUrl,
  subscriptionsProblem,
  WebhookEndpoint,
  WebhookEndpointNotFoundError,
} from '../domain/webhook-endpoint';
import { AddressPolicy } from './address-policy';
import { WebhookEndpoints } from './webhook-endpoints';

@Injectable()
export class UpdateWebhookEndpoint {
  constructor(
    private readonly endpoints: WebhookEndpoints,
    private readonly addresses: AddressPolicy,
  ) {}

  async execute(
    requester: Requester,
    id: EndpointId,
    changes: EndpointChanges,
  ): Promise<WebhookEndpoint> {
    checkScope(['webhooks:manage'], requester.scopes);
    if (changes.url !== undefined) changes = { ...changes, url: parsedUrl(changes.url) };
    const problem =
      (changes.url === undefined ? undefined : this.addresses.urlProblem(changes.url)) ??
      (changes.events === undefined ? undefined : subscriptionsProblem(changes.events)) ??
      descriptionProblem(changes.description);
    if (problem) throw new InvalidWebhookEndpointError(problem);
    const updated = await this.endpoints.update(requester.keyId, id, changes);
    if (!updated) throw new WebhookEndpointNotFoundError(id);
    return updated;
  }
}
