import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiClient, AuthenticatedClient } from '@pet-adoption/api-keys';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { AppConfig } from '../../platform/config/app-config';
import {
  ApiErrorResponses,
  KEY_PROTECTED_ERRORS,
} from '../../platform/http/errors/api-error-responses.decorator';
import {
  DataFile,
  requiredDataFile,
  UploadedDataFile,
} from '../../platform/http/request/data-file';
import {
  ApiIdempotencyKeyHeader,
  IdempotencyKey,
  IdempotencyKeyHeader,
} from '../../platform/http/request/idempotency-key';
import { requesterOf } from '../../platform/http/request/requester';
import {
  AcceptsDataFile,
  RequiresScope,
  Stability,
} from '../../platform/http/route-facts/route-facts.decorators';
import { ExportFormat, ExportPets } from '../application/export-pets.use-case';
import { GetImport } from '../application/get-import.use-case';
import { SubmitImport } from '../application/submit-import.use-case';
import { Import, MAX_IMPORT_ROWS } from '../domain/import';
import { PET_COLUMNS } from '../domain/pet-columns';
import { ImportDto } from './dto/import.dto';
import {
  ExportParamsDto,
  ExportQueryDto,
  ImportIdParamsDto,
  importIdOf,
  ImportQueryDto,
  organizationIdOf,
} from './dto/import-params.dto';

const EXPORT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  petfinder: 'text/csv; charset=utf-8',
};

/** A shelter's animals in and out as files (CONTRACT.md "Shelter data in and out (v1.4)"). */
@ApiTags('data')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1')
export class ImportsController {
  constructor(
    private readonly submitImport: SubmitImport,
    private readonly getImport: GetImport,
    private readonly exportPets: ExportPets,
    private readonly config: AppConfig,
  ) {}

  @Post('imports')
  @HttpCode(202)
  @Stability('beta')
  @RequiresScope('pets:manage')
  @AcceptsDataFile()
  @ApiOperation({
    operationId: 'createImport',
    summary: "Import a shelter's animals from a file",
    description:
      `A CSV file (\`text/csv\`: a header row of the columns ${PET_COLUMNS.map((c) => `\`${c}\``).join(', ')}; \`colors\` and \`tags\` \`|\`-separated) or NDJSON (\`application/x-ndjson\`: one Pet body a line, with \`externalId\`), at most 50 MiB and ${MAX_IMPORT_ROWS.toLocaleString('en')} rows, into the key's own organisation. ` +
      'Each row creates or changes the animal its `externalId` names (a row stating the animal as it is changes nothing and records no event; each created or changed one records its `pet.*` event); a row in error never stops the others. ' +
      'Answered at once with the `Import`, `queued`: the background work of any instance imports it a batch at a time; read its progress at `GET /v1/imports/{id}`. `?dryRun=true` checks every row and changes nothing.',
  })
  @ApiIdempotencyKeyHeader('import')
  @ApiResponse({
    status: 202,
    description: 'The import, queued',
    type: ImportDto,
    headers: {
      Location: { description: 'Address of the import', schema: { type: 'string', format: 'uri' } },
    },
  })
  @ApiErrorResponses(
    'validation_failed',
    'payload_too_large',
    'unsupported_media_type',
    'idempotency_key_reused',
  )
  async create(
    @Query() query: ImportQueryDto,
    @DataFile() sent: UploadedDataFile | undefined,
    @IdempotencyKey() { key }: IdempotencyKeyHeader,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Import> {
    const file = requiredDataFile(sent);
    const idempotency = key === undefined ? undefined : { scope: `key:${client.keyId}`, key };
    const { import: created, replayed } = await this.submitImport.execute(
      requesterOf(client),
      {
        bytes: file.bytes,
        format: file.mediaType === 'text/csv' ? 'csv' : 'ndjson',
        dryRun: query.dryRun === 'true',
      },
      idempotency,
    );
    void reply.header('location', `${this.config.http.publicBaseUrl}/imports/${created.id}`);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return created;
  }

  @Get('imports/:importId')
  @Stability('beta')
  @RequiresScope('pets:read')
  @ApiOperation({
    operationId: 'getImport',
    summary: 'Read an import and its progress',
    description:
      "To the staff of the import's organisation (anyone else: 404): its status, the rows counted so far, and the first 1,000 problems.",
  })
  @ApiResponse({ status: 200, description: 'The import', type: ImportDto })
  @ApiErrorResponses('validation_failed', 'not_found')
  async get(
    @Param() params: ImportIdParamsDto,
    @AuthenticatedClient() client: ApiClient,
  ): Promise<Import> {
    return this.getImport.execute(requesterOf(client), importIdOf(params));
  }

  @Get('organizations/:organizationId/pets/export')
  @Stability('beta')
  @RequiresScope('pets:read')
  @ApiOperation({
    operationId: 'exportPets',
    summary: "Export an organisation's animals",
    description:
      "Every live animal of the organisation, streamed in id order: `csv` in the import's columns (importing it back changes nothing), `ndjson` one Pet a line, `petfinder` in Petfinder's shelter upload columns and codes (status A/H/X, photo URLs; mapping in docs/api.md).",
  })
  @ApiResponse({
    status: 200,
    description: 'The file',
    content: {
      'text/csv': { schema: { type: 'string' } },
      'application/x-ndjson': { schema: { type: 'string' } },
    },
  })
  @ApiErrorResponses('validation_failed', 'not_found')
  async export(
    @Param() params: ExportParamsDto,
    @Query() query: ExportQueryDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable> {
    const format = query.format as ExportFormat;
    const lines = await this.exportPets.execute(
      requesterOf(client),
      organizationIdOf(params),
      format,
    );
    void reply.header('content-type', EXPORT_TYPES[format]);
    return Readable.from(lines);
  }
}
