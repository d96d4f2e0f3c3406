import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { EndpointId, WebhookEndpointNotFoundError } from '../domain/webhook-endpoint';
import { WebhookEndpoints, WebhookSecrets } from './webhook-endpoints';

/** For this long after a rotation every delivery carries both signatures, old and new. */
export const ROTATION_OVERLAP_SECONDS = 24 * 60 * 60;

@Injectable()
export class RotateWebhookSecret {
  constructor(
    private readonly endpoints: WebhookEndpoints,
    private readonly secrets: WebhookSecrets,
  ) {}

  /** The new secret: shown once, here. */
  async execute(requester: Requester, id: EndpointId): Promise<string> {
    checkScope(['webhooks:manage'], requester.scopes);
    const secret = this.secrets.issue();
    const rotated = await this.endpoints.rotateSecret(
      requester.keyId,
      id,
      this.secrets.seal(secret),
      ROTATION_OVERLAP_SECONDS,
    );
    if (!rotated) throw new WebhookEndpointNotFoundError(id);
    return secret;
  }
}
