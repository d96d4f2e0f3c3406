import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PLANS, Plan } from '@pet-adoption/api-keys';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { IsText } from '../../../platform/http/request/text.validator';

@ApiSchema({ name: 'RateLimits' })
export class RateLimitsDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 5000 })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  perMinute!: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1_000_000 })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  perDay!: number;
}

@ApiSchema({ name: 'NewApiKey' })
export class IssueApiKeyDto {
  @ApiProperty({
    description: 'Who the key is for',
    minLength: 1,
    maxLength: 100,
    example: 'Acme shop',
  })
  @IsText({ min: 1, max: 100 })
  name!: string;

  @ApiProperty({ enum: PLANS, enumName: 'Plan' })
  @IsIn(PLANS, { message: `plan must be one of ${PLANS.join(', ')}` })
  plan!: Plan;

  @ApiPropertyOptional({
    type: RateLimitsDto,
    description: 'Required for enterprise keys, refused for the others',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => RateLimitsDto)
  limits?: RateLimitsDto;
}
