import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import {
  descriptionProblem,
  InvalidWebhookEndpointError,
  Subscription,
  subscriptionsProblem,
  WebhookEndpoint,
  WebhookEndpointLimitError,
} from '../domain/webhook-endpoint';
import { AddressPolicy } from './address-policy';
import { WebhookEndpoints, WebhookSecrets } from './webhook-endpoints';

export interface NewEndpointInput {
  url: string;
  events: readonly string[];
  description?: string | null;
}

/** An endpoint, with its secret: the only time the secret is shown (and the rotation's). */
export interface CreatedEndpoint {
  endpoint: WebhookEndpoint;
  secret: string;
}

/** Who creates: a key, with the number of endpoints its plan lets it have. */
export interface EndpointCreator extends Requester {
  readonly endpointLimit: number;
}

@Injectable()
export class CreateWebhookEndpoint {
  constructor(
    private readonly endpoints: WebhookEndpoints,
    private readonly secrets: WebhookSecrets,
    private readonly addresses: AddressPolicy,
  ) {}

  async execute(requester: EndpointCreator, input: NewEndpointInput): Promise<CreatedEndpoint> {
    checkScope(['webhooks:manage'], requester.scopes);
    const problem =
      this.addresses.urlProblem(input.url) ??
      subscriptionsProblem(input.events) ??
      descriptionProblem(input.description);
    if (problem) throw new InvalidWebhookEndpointError(problem);
    const secret = this.secrets.issue();
    const endpoint = await this.endpoints.create(
      {
        owner: requester.keyId,
        url: input.url,
        events: input.events as readonly Subscription[],
        description: input.description ?? null,
        sealedSecret: this.secrets.seal(secret),
      },
      requester.endpointLimit,
    );
    if (!endpoint) throw new WebhookEndpointLimitError(requester.endpointLimit);
    return { endpoint, secret };
  }
}
