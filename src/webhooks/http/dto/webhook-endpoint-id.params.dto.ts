import { ApiProperty } from '@nestjs/swagger';
import { IsInt64Text } from '../../../platform/http/request/int64';
import {
  EndpointId,
  MAX_ENDPOINT_ID,
  WebhookEndpointNotFoundError,
} from '../../domain/webhook-endpoint';

/** The path of an endpoint: an integer from 1 to 2^63 - 1, as text, never rounded. */
export class WebhookEndpointIdParamsDto {
  @ApiProperty({
    description: 'Identifier of the endpoint',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsInt64Text(1n)
  endpointId!: string;
}

/** The endpoint id a valid path names. Above 2^53 - 1 no endpoint can have it: a 404. */
export function endpointIdOf({ endpointId }: WebhookEndpointIdParamsDto): EndpointId {
  if (BigInt(endpointId) > BigInt(MAX_ENDPOINT_ID))
    throw new WebhookEndpointNotFoundError(endpointId);
  return Number(endpointId);
}
