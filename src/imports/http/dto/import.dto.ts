import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IMPORT_FORMATS, IMPORT_STATUSES, MAX_IMPORT_ERRORS } from '../../domain/import';

@ApiSchema({ name: 'ImportRows' })
export class ImportRowsDto {
  @ApiProperty({
    description:
      'Data rows in the file (a CSV header is no row; blank NDJSON lines neither): `null` until the file has been read through',
    type: 'integer',
    nullable: true,
  })
  total!: number | null;

  @ApiProperty({
    description: 'Rows that created an animal (or would, in a dry run)',
    type: 'integer',
  })
  created!: number;

  @ApiProperty({ description: 'Rows that changed their animal (or would)', type: 'integer' })
  updated!: number;

  @ApiProperty({
    description: 'Rows that state their animal as it is: nothing written, no event',
    type: 'integer',
  })
  unchanged!: number;

  @ApiProperty({ description: 'Rows refused, each with its problem in `errors`', type: 'integer' })
  failed!: number;
}

@ApiSchema({ name: 'ImportError' })
export class ImportErrorDto {
  @ApiProperty({
    description:
      'The data row, from 1 (in NDJSON, the line); `null` for the file as a whole (an import that `failed`)',
    type: 'integer',
    nullable: true,
  })
  row!: number | null;

  @ApiProperty({
    description: 'The column or member at fault, or `null` for the row as a whole',
    type: 'string',
    nullable: true,
    example: 'name',
  })
  field!: string | null;

  @ApiProperty({
    description:
      'What is wrong: `required`, `type`, `invalid`, `format`, `unknown_field`, `range`, or the error code an API request would have been answered (`already_exists`, `pet_has_open_order`)',
    example: 'invalid',
  })
  issue!: string;

  @ApiProperty({ description: 'For humans: what is wrong and how to fix it' })
  message!: string;
}

@ApiSchema({ name: 'Import' })
export class ImportDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  id!: number;

  @ApiProperty({
    description:
      '`queued`, then `running` (counting its rows, then importing them a batch at a time), then `succeeded` (rows in error included: see `rows.failed`) or `failed` (the file could not be imported at all: unreadable, unknown columns, over 100,000 rows; nothing was imported)',
    enum: IMPORT_STATUSES,
    enumName: 'ImportStatus',
  })
  status!: string;

  @ApiProperty({ enum: IMPORT_FORMATS, description: "The file's format, from its Content-Type" })
  format!: string;

  @ApiProperty({ description: 'A dry run checks every row and changes nothing' })
  dryRun!: boolean;

  @ApiProperty({ type: ImportRowsDto })
  rows!: ImportRowsDto;

  @ApiProperty({
    description: `The first ${MAX_IMPORT_ERRORS} problems, in row order`,
    type: [ImportErrorDto],
  })
  errors!: ImportErrorDto[];

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  finishedAt!: string | null;
}
