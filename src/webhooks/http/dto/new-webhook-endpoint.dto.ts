import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsString, ValidateIf } from 'class-validator';
import { IsDateTime } from '../../../platform/http/request/date-time.validator';
import { IsText } from '../../../platform/http/request/text.validator';
import { ENDPOINT_DESCRIPTION, MAX_URL_LENGTH, Subscription } from '../../domain/webhook-endpoint';
import { SUBSCRIPTION } from './subscription-enum';
import { IsSubscriptions } from './subscriptions.validator';

const URL_DOC = {
  description:
    'Absolute `https` URL without credentials, not a loopback, private, link-local or reserved address in any spelling, nor `localhost` (plain `http` and private addresses only inside `WEBHOOK_ALLOWED_NETWORKS`)',
  format: 'uri',
  maxLength: MAX_URL_LENGTH,
  example: 'https://shelter.example/hooks/pets',
};
const EVENTS_DOC = {
  description: 'Event types to receive, or `["*"]` for every type the key may read',
  isArray: true,
  ...SUBSCRIPTION,
  minItems: 1,
  example: ['order.placed', 'order.cancelled'],
};
const DESCRIPTION_DOC = {
  type: 'string',
  nullable: true,
  maxLength: ENDPOINT_DESCRIPTION.max,
  description: 'For people: what the endpoint is',
} as const;

/** The body of createWebhookEndpoint. */
@ApiSchema({ name: 'NewWebhookEndpoint' })
export class NewWebhookEndpointDto {
  @ApiProperty(URL_DOC)
  @IsString({ message: 'url must be a string' })
  url!: string;

  @ApiProperty(EVENTS_DOC)
  @IsArray({ message: 'events must be an array' })
  @IsSubscriptions()
  events!: Subscription[];

  @ApiPropertyOptional(DESCRIPTION_DOC)
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsText(ENDPOINT_DESCRIPTION)
  description?: string | null;
}

/** The body of updateWebhookEndpoint: any of the members; absent ones are kept. */
@ApiSchema({ name: 'WebhookEndpointUpdate' })
export class WebhookEndpointUpdateDto {
  @ApiPropertyOptional(URL_DOC)
  @ValidateIf((_, value) => value !== undefined)
  @IsString({ message: 'url must be a string' })
  url?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @ValidateIf((_, value) => value !== undefined)
  @IsArray({ message: 'events must be an array' })
  @IsSubscriptions()
  events?: Subscription[];

  @ApiPropertyOptional({ ...DESCRIPTION_DOC, description: 'null clears it' })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsText(ENDPOINT_DESCRIPTION)
  description?: string | null;

  @ApiPropertyOptional({
    description:
      'false stops deliveries (they wait); true resumes them, and clears `disabledReason`',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}

/** The body of recoverWebhookDeliveries. */
@ApiSchema({ name: 'WebhookRecovery' })
export class WebhookRecoveryDto {
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description:
      'Deliveries that failed for good and were created since this instant are sent again',
    example: '2026-11-23T00:00:00Z',
  })
  @IsDateTime()
  since!: string;
}
