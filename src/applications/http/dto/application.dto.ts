import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { objectOrNull } from '../../../platform/http/response/object-or-null';
import { APPLICATION_STATUSES, CLOSED_REASONS } from '../../domain/application';
import { QUESTION_TYPES } from '../../domain/questionnaire';

const nullableText = (description: string, example?: string) =>
  ApiProperty({ type: 'string', nullable: true, description, ...(example ? { example } : {}) });

@ApiSchema({ name: 'ApplicantAddress' })
export class ApplicantAddressDto {
  @ApiProperty({ type: 'string', nullable: true, example: 'Bristol' }) city!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'ISO 3166-1 alpha-2', example: 'GB' })
  country!: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) line1?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) region?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) postalCode?: string | null;
}

/** The person applying; every member null once erased. */
@ApiSchema({ name: 'Applicant' })
@ApiExtraModels(ApplicantAddressDto)
export class ApplicantDto {
  @nullableText('Name, 1 to 100 characters', 'Ana Lima') name!: string | null;
  @nullableText('A valid e-mail address', 'ana@example.com') email!: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true, example: '+44 117 496 0000' })
  phone?: string | null;
  @ApiProperty(objectOrNull(ApplicantAddressDto)) address!: ApplicantAddressDto | null;
}

@ApiSchema({ name: 'ApplicationNote' })
export class ApplicationNoteDto {
  @ApiProperty({ type: 'integer', example: 1 }) id!: number;
  @ApiProperty({ example: 'Called; home visit on Friday.' }) text!: string;
  @ApiProperty({ example: '12' }) authorKeyId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** An application as returned; `assigneeKeyId` and `notes` only to the staff of its shelter. */
@ApiSchema({ name: 'Application' })
export class ApplicationDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 }) id!: number;
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 }) petId!: number;
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 }) organizationId!: number;
  @ApiProperty({ enum: APPLICATION_STATUSES, enumName: 'ApplicationStatus' }) status!: string;
  @ApiProperty({ type: ApplicantDto }) applicant!: ApplicantDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Question id → answer, as the questionnaire version it answered asks',
    example: { household: 'Two adults', housing: 'own' },
  })
  answers!: Record<string, unknown>;
  @ApiProperty({ type: 'integer', example: 1 }) questionnaireVersion!: number;
  @nullableText('Why it was decided so') decisionReason!: string | null;
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    description: "The hold's order",
  })
  orderId!: number | null;
  @ApiProperty({
    type: 'string',
    enum: [...CLOSED_REASONS, null],
    nullable: true,
    description: 'Why the service closed it, or null',
  })
  closedReason!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: 'integer', example: 1 }) version!: number;
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'Staff only' })
  assigneeKeyId?: string | null;
  @ApiPropertyOptional({ type: [ApplicationNoteDto], description: 'Staff only' })
  notes?: ApplicationNoteDto[];
}

@ApiSchema({ name: 'Question' })
export class QuestionDto {
  @ApiProperty({ pattern: '^[A-Za-z0-9_]{1,40}$', example: 'housing' }) id!: string;
  @ApiProperty({ example: 'Do you own or rent your home?' }) text!: string;
  @ApiProperty({ enum: QUESTION_TYPES, enumName: 'QuestionType' }) type!: string;
  @ApiProperty() required!: boolean;
  @ApiPropertyOptional({ type: [String], example: ['own', 'rent', 'other'] }) choices?: string[];
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10000 }) maxLength?: number;
}

@ApiSchema({ name: 'Questionnaire' })
export class QuestionnaireDto {
  @ApiProperty({ type: 'integer', example: 1 }) version!: number;
  @ApiProperty({ type: [QuestionDto] }) questions!: QuestionDto[];
}
