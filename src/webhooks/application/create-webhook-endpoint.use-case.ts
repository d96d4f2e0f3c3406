import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import {
  descriptionProblem,
  InvalidWebhookEndpointError,
  parsedUrl,
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
  /** True when this answers a retry: the endpoint was created by an earlier request. */
  replayed: boolean;
}

/** Who creates: a key, with the number of endpoints its plan lets it have. */
export interface EndpointCreator extends Requester {
  readonly endpointLimit: number;
}

/**
 * What a creation records for its retries (docs/adr/0047): the endpoint, and its secret sealed
 * as the endpoints table keeps it (encrypted under WEBHOOK_SECRETS_KEY when one is set), never
 * the plain secret. A replay opens it: the same body as the first answer.
 */
interface RecordedCreation {
  endpoint: WebhookEndpoint;
  sealedSecret: string;
}

@Injectable()
export class CreateWebhookEndpoint {
  constructor(
    private readonly endpoints: WebhookEndpoints,
    private readonly secrets: WebhookSecrets,
    private readonly addresses: AddressPolicy,
    private readonly idempotency: Idempotency,
  ) {}

  async execute(
    requester: EndpointCreator,
    input: NewEndpointInput,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<CreatedEndpoint> {
    checkScope(['webhooks:manage'], requester.scopes);
    // Stored as parsed, so that what is shown is where requests go.
    input = { ...input, url: parsedUrl(input.url) };
    const problem =
      this.addresses.urlProblem(input.url) ??
      subscriptionsProblem(input.events) ??
      descriptionProblem(input.description);
    if (problem) throw new InvalidWebhookEndpointError(problem);
    const create = async (): Promise<RecordedCreation> => {
      const sealedSecret = this.secrets.seal(this.secrets.issue());
      const endpoint = await this.endpoints.create(
        {
          owner: requester.keyId,
          url: input.url,
          events: input.events as readonly Subscription[],
          description: input.description ?? null,
          sealedSecret,
        },
        requester.endpointLimit,
      );
      if (!endpoint) throw new WebhookEndpointLimitError(requester.endpointLimit);
      return { endpoint, sealedSecret };
    };
    // A retry of a creation that succeeded answers it again, even with the key now at its cap;
    // one that was refused (the cap, a rollback) left nothing recorded, and creates.
    const { value, replayed } = idempotencyKey
      ? await this.idempotency.once(
          {
            ...idempotencyKey,
            fingerprint: fingerprintOf([input.url, input.events, input.description ?? null]),
          },
          create,
        )
      : { value: await create(), replayed: false };
    return {
      endpoint: value.endpoint,
      secret: this.secrets.open(value.sealedSecret),
      replayed,
    };
  }
}
