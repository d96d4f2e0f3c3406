import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsArray, IsDefined, IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { Given, Nullable } from '../../../platform/http/request/presence';
import { PageQueryDto } from '../../../platform/http/request/page-query.dto';
import { APPLICATION_STATUSES, ApplicationStatus } from '../../domain/application';
import { ApplicantDto, QuestionDto } from './application.dto';

/** The body of submitApplication; the members are checked against the questionnaire. */
@ApiSchema({ name: 'NewApplication' })
export class NewApplicationDto {
  @ApiProperty({ type: ApplicantDto })
  @IsDefined({ message: 'applicant is required' })
  @IsObject({ message: 'applicant must be an object' })
  applicant!: Record<string, unknown>;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "Question id → answer, for the pet's organisation's questionnaire",
    example: { household: 'Two adults', housing: 'own' },
  })
  @IsDefined({ message: 'answers is required' })
  @IsObject({ message: 'answers must be an object' })
  answers!: Record<string, unknown>;
}

const PATCH_STATUSES = ['under_review', 'approved', 'denied', 'withdrawn'] as const;

/** updateApplication's merge patch: staff's members, or the applicant's. */
@ApiSchema({ name: 'ApplicationUpdate' })
export class ApplicationUpdateDto {
  @ApiPropertyOptional({
    enum: PATCH_STATUSES,
    description: 'Staff: under_review, approved, denied; the applicant: withdrawn',
  })
  @Given()
  @IsIn(PATCH_STATUSES, { message: `status must be one of ${PATCH_STATUSES.join(', ')}` })
  status?: ApplicationStatus;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 2000, description: 'Staff' })
  @Nullable()
  @IsString({ message: 'decisionReason must be a string or null' })
  decisionReason?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'Staff: a key of the shelter',
  })
  @Nullable()
  @IsString({ message: 'assigneeKeyId must be a string or null' })
  assigneeKeyId?: string | null;

  @ApiPropertyOptional({ type: ApplicantDto, description: "The applicant's key, while submitted" })
  @Given()
  @IsObject({ message: 'applicant must be an object' })
  applicant?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "The applicant's key, while submitted",
  })
  @Given()
  @IsObject({ message: 'answers must be an object' })
  answers?: Record<string, unknown>;
}

@ApiSchema({ name: 'NewApplicationNote' })
export class NewApplicationNoteDto {
  @ApiProperty({ minLength: 1, maxLength: 5000, example: 'Called; home visit on Friday.' })
  @IsString({ message: 'text must be a string' })
  text!: string;
}

@ApiSchema({ name: 'QuestionnaireUpdate' })
export class QuestionnaireUpdateDto {
  @ApiProperty({ type: [QuestionDto], minItems: 1, maxItems: 50 })
  @IsArray({ message: 'questions must be a list' })
  questions!: unknown[];
}

export class ListApplicationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: APPLICATION_STATUSES, enumName: 'ApplicationStatus' })
  @IsOptional()
  @IsString({ message: 'status must be given once' })
  @IsIn(APPLICATION_STATUSES, {
    message: `status must be one of ${APPLICATION_STATUSES.join(', ')}`,
  })
  status?: ApplicationStatus;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 1 })
  @IsOptional()
  @IsString({ message: 'petId must be given once' })
  @IsInt64Text(1n)
  petId?: string;

  @ApiPropertyOptional({ enum: ['me'], description: 'Only those assigned to this key' })
  @IsOptional()
  @IsIn(['me'], { message: 'assignee must be me' })
  assignee?: 'me';
}

export class ApplicationIdParamsDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  @IsInt64Text(1n)
  applicationId!: string;
}

export class OrganizationIdParamsDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  @IsInt64Text(1n)
  organizationId!: string;
}
