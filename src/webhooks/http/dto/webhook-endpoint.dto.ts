import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  DISABLED_REASONS,
  DisabledReason,
  Subscription,
  WebhookEndpoint,
} from '../../domain/webhook-endpoint';
import { SUBSCRIPTION } from './subscription-enum';

/** An endpoint as returned: never its secret, nor whose it is. */
@ApiSchema({ name: 'WebhookEndpoint' })
export class WebhookEndpointDto {
  @ApiProperty({ description: 'Assigned by the service', type: 'integer', format: 'int64' })
  id!: number;

  @ApiProperty({
    description: 'Where events are POSTed: absolute https',
    format: 'uri',
    example: 'https://shelter.example/hooks/pets',
  })
  url!: string;

  @ApiProperty({
    description: 'The event types it receives, or `["*"]` for every type its key may read',
    isArray: true,
    ...SUBSCRIPTION,
    example: ['order.placed', 'order.cancelled'],
  })
  events!: Subscription[];

  @ApiProperty({ type: 'string', nullable: true, description: 'For people; up to 500 characters' })
  description!: string | null;

  @ApiProperty({ description: 'Whether events are sent to it' })
  enabled!: boolean;

  @ApiProperty({
    type: 'string',
    enum: [...DISABLED_REASONS, null],
    nullable: true,
    description:
      'Why the service disabled it: it answered 410 (`gone`), or failed every attempt for `WEBHOOK_DISABLE_AFTER_HOURS` (`failing`); null otherwise',
  })
  disabledReason!: DisabledReason | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt!: string;

  static of({ id, url, events, description, enabled, disabledReason, createdAt }: WebhookEndpoint) {
    return { id, url, events: [...events], description, enabled, disabledReason, createdAt };
  }
}

/** An endpoint just created, with the secret that signs its deliveries: shown this once. */
@ApiSchema({ name: 'CreatedWebhookEndpoint' })
export class CreatedWebhookEndpointDto extends WebhookEndpointDto {
  @ApiProperty({
    description:
      '`whsec_` and 32 random bytes in base64: verify deliveries with it (Standard Webhooks). Shown only here and on rotation',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}

@ApiSchema({ name: 'WebhookSecret' })
export class WebhookSecretDto {
  @ApiProperty({
    description:
      'The new secret; for 24 hours deliveries carry a signature by the previous one too. Shown only here',
  })
  secret!: string;
}
