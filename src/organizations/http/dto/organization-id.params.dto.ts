import { ApiProperty } from '@nestjs/swagger';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { MAX_ORGANIZATION_ID, OrganizationId } from '../../domain/organization';
import { OrganizationNotFoundError } from '../../domain/organization.errors';

/** The path of an organisation: an integer from 1 to 2^63 - 1, as text, never rounded. */
export class OrganizationIdParamsDto {
  @ApiProperty({
    description: 'Identifier of the organisation',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsInt64Text(1n)
  organizationId!: string;
}

/** The id a valid path names. Above 2^53 - 1 no organisation has it: a 404, with the id as written. */
export function organizationIdOf({ organizationId }: OrganizationIdParamsDto): OrganizationId {
  if (BigInt(organizationId) > BigInt(MAX_ORGANIZATION_ID)) {
    throw new OrganizationNotFoundError(organizationId);
  }
  return Number(organizationId);
}
