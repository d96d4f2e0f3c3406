import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PLANS, Plan } from '@pet-adoption/api-keys';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

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

export class IssueApiKeyDto {
  @ApiProperty({
    description: 'Who the key is for',
    minLength: 1,
    maxLength: 100,
    example: 'Acme shop',
  })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'name must not be only white space' })
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
