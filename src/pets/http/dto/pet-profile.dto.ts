import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  registerDecorator,
  ValidateNested,
} from 'class-validator';
import {
  PET_AGES,
  PET_COATS,
  PET_SEXES,
  PET_SIZES,
  PetAge,
  PetCoat,
  PetSex,
  PetSize,
} from '../../domain/pet-profile-shape';
import { Given, Nullable } from '../../../platform/http/request/presence';
import { IsText } from '../../../platform/http/request/text.validator';
import { IssueContext } from '../../../platform/http/request/validation-details';
import { objectOrNull } from '../../../platform/http/response/object-or-null';
import {
  BREED_NAME,
  birthDateProblem,
  COLOR,
  DESCRIPTION,
  MAX_COLORS,
  MAX_TAGS,
  TAG,
  tagKey,
} from '../../domain/pet-profile';

const BIRTH_DATE: IssueContext = {
  issue: (value) => (typeof value === 'string' ? 'format' : 'type'),
};

/**
 * class-validator rule: a full-date on or before today anywhere (the domain's rule, asked of the
 * system's clock here at the edge; the use case asks again of its own).
 */
function IsBirthDate(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isBirthDate',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { context: BIRTH_DATE },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && !birthDateProblem(value, new Date()),
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? `birthDate ${birthDateProblem(args.value, new Date())}`
            : 'birthDate must be a string',
      },
    });
}

/** A choice among `choices`, or null. */
const NullableChoice = (choices: readonly string[], name: string, description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'string', enum: [...choices, null], nullable: true, description }),
    Nullable(),
    IsIn(choices, { message: `${name} must be one of ${choices.join(', ')}, or null` }),
  );

/** true, false, or null: what the shelter has not said. */
const NullableFlag = (path: string, description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'boolean', nullable: true, description }),
    Nullable(),
    IsBoolean({ message: `${path} must be true, false or null` }),
  );

/** A list of short texts, at most `most`; null empties it. */
const TextList = (name: string, bounds: typeof COLOR, most: number, description: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', minLength: bounds.min, maxLength: bounds.max },
      maxItems: most,
      nullable: true,
      description,
    }),
    Nullable(),
    IsArray({ message: `${name} must be a list of strings, or null` }),
    ArrayMaxSize(most, { message: `${name} must hold at most ${most} entries` }),
    IsText(bounds, { each: true }),
  );

/** A breed as a client sends it: each member merges with the stored one. */
@ApiSchema({ name: 'BreedInput' })
export class BreedInputDto {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    minLength: BREED_NAME.min,
    maxLength: BREED_NAME.max,
    example: 'Labrador Retriever',
  })
  @Nullable()
  @IsText(BREED_NAME)
  primary?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    minLength: BREED_NAME.min,
    maxLength: BREED_NAME.max,
    example: 'Collie',
  })
  @Nullable()
  @IsText(BREED_NAME)
  secondary?: string | null;

  @ApiPropertyOptional({ type: 'boolean', description: 'A mix of breeds (never null)' })
  @Given()
  @IsBoolean({ message: 'breed.mixed must be true or false' })
  mixed?: boolean;
}

/** Attributes as a client sends them: each merges with the stored one. */
@ApiSchema({ name: 'PetAttributesInput' })
export class PetAttributesInputDto {
  @NullableFlag('attributes.spayedNeutered', 'Spayed or neutered')
  spayedNeutered?: boolean | null;

  @NullableFlag('attributes.houseTrained', 'House-trained')
  houseTrained?: boolean | null;

  @NullableFlag('attributes.specialNeeds', 'Has special needs')
  specialNeeds?: boolean | null;

  @NullableFlag('attributes.shotsCurrent', 'Vaccinations up to date')
  shotsCurrent?: boolean | null;
}

/** Good with: each merges with the stored one. */
@ApiSchema({ name: 'PetEnvironmentInput' })
export class PetEnvironmentInputDto {
  @NullableFlag('environment.children', 'Good with children')
  children?: boolean | null;

  @NullableFlag('environment.dogs', 'Good with dogs')
  dogs?: boolean | null;

  @NullableFlag('environment.cats', 'Good with cats')
  cats?: boolean | null;
}

/**
 * The input objects' schemas, which a body taking the profile's members names (their references
 * are `anyOf` an object or null): on the body's class, since mapped types do not carry them.
 */
export const ApiProfileInputModels = () =>
  ApiExtraModels(BreedInputDto, PetAttributesInputDto, PetEnvironmentInputDto);

/** A nested member given as an object that merges, or null (all its members unknown again). */
const MergedObject = (type: new () => object, name: string) =>
  applyDecorators(
    ApiPropertyOptional(objectOrNull(type)),
    Nullable(),
    IsObject({ message: `${name} must be an object or null` }),
    ValidateNested(),
    Type(() => type),
  );

/**
 * The profile's members as createPet and updatePet take them (v1.3), every one optional: on a
 * change, absent members are kept, `null` makes one unknown again, and the objects merge member by
 * member (RFC 7396).
 */
export class PetProfileInputDto {
  @MergedObject(BreedInputDto, 'breed')
  breed?: BreedInputDto | null;

  @NullableChoice(PET_AGES, 'age', 'Age group')
  age?: PetAge | null;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date',
    nullable: true,
    description: 'Date of birth (full-date), not in the future',
    example: '2024-03-01',
  })
  @Nullable()
  @IsBirthDate()
  birthDate?: string | null;

  @NullableChoice(PET_SEXES, 'sex', 'Sex')
  sex?: PetSex | null;

  @NullableChoice(PET_SIZES, 'size', 'Size when grown')
  size?: PetSize | null;

  @NullableChoice(PET_COATS, 'coat', 'Coat length or kind')
  coat?: PetCoat | null;

  @TextList('colors', COLOR, MAX_COLORS, `Up to ${MAX_COLORS} colours, each up to 30 characters`)
  colors?: string[] | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    minLength: DESCRIPTION.min,
    maxLength: DESCRIPTION.max,
    description: 'What an adopter should know: up to 10,000 characters, lines and tabs included',
  })
  @Nullable()
  @IsText(DESCRIPTION)
  description?: string | null;

  @MergedObject(PetAttributesInputDto, 'attributes')
  attributes?: PetAttributesInputDto | null;

  @MergedObject(PetEnvironmentInputDto, 'environment')
  environment?: PetEnvironmentInputDto | null;

  @TextList('tags', TAG, MAX_TAGS, `Up to ${MAX_TAGS} distinct tags, each up to 30 characters`)
  @ArrayUnique((tag: unknown) => (typeof tag === 'string' ? tagKey(tag) : tag), {
    message: 'tags must be distinct, whatever their case',
  })
  tags?: string[] | null;
}

/** A breed as answered. */
@ApiSchema({ name: 'Breed' })
export class BreedDto {
  @ApiProperty({ type: 'string', nullable: true, example: 'Labrador Retriever' })
  primary!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: null })
  secondary!: string | null;

  @ApiProperty({ description: 'A mix of breeds' })
  mixed!: boolean;
}

/** Attributes as answered: each true, false, or null when the shelter has not said. */
@ApiSchema({ name: 'PetAttributes' })
export class PetAttributesDto {
  @ApiProperty({ type: 'boolean', nullable: true })
  spayedNeutered!: boolean | null;

  @ApiProperty({ type: 'boolean', nullable: true })
  houseTrained!: boolean | null;

  @ApiProperty({ type: 'boolean', nullable: true })
  specialNeeds!: boolean | null;

  @ApiProperty({ type: 'boolean', nullable: true })
  shotsCurrent!: boolean | null;
}

/** Good with, as answered: each true, false, or null when the shelter has not said. */
@ApiSchema({ name: 'PetEnvironment' })
export class PetEnvironmentDto {
  @ApiProperty({ type: 'boolean', nullable: true })
  children!: boolean | null;

  @ApiProperty({ type: 'boolean', nullable: true })
  dogs!: boolean | null;

  @ApiProperty({ type: 'boolean', nullable: true })
  cats!: boolean | null;
}

/** The profile as every answer carries it: each member present, null, false or [] when unknown. */
export class PetProfileDto {
  @ApiProperty({ type: BreedDto })
  breed!: BreedDto;

  @ApiProperty({ type: 'string', enum: [...PET_AGES, null], nullable: true })
  age!: PetAge | null;

  @ApiProperty({ type: 'string', format: 'date', nullable: true, example: '2024-03-01' })
  birthDate!: string | null;

  @ApiProperty({ type: 'string', enum: [...PET_SEXES, null], nullable: true })
  sex!: PetSex | null;

  @ApiProperty({ type: 'string', enum: [...PET_SIZES, null], nullable: true })
  size!: PetSize | null;

  @ApiProperty({ type: 'string', enum: [...PET_COATS, null], nullable: true })
  coat!: PetCoat | null;

  @ApiProperty({ type: 'array', items: { type: 'string' }, example: ['black', 'white'] })
  colors!: string[];

  @ApiProperty({ type: 'string', nullable: true })
  description!: string | null;

  @ApiProperty({ type: PetAttributesDto })
  attributes!: PetAttributesDto;

  @ApiProperty({ type: PetEnvironmentDto })
  environment!: PetEnvironmentDto;

  @ApiProperty({ type: 'array', items: { type: 'string' }, example: ['calm'] })
  tags!: string[];
}
