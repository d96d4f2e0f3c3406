import { Module } from '@nestjs/common';
import { BackgroundModule } from '../platform/background/background.module';
import { EventRecordingModule } from '../platform/event-log/event-recording.module';
import { Feature } from '../platform/features/feature';
import { HttpModule } from '../platform/http/http.module';
import { IdempotencyModule } from '../platform/idempotency/idempotency.module';
import { PetPortsModule } from '../pets/pet-ports.module';
import { ExportLookups } from './application/export-lookups';
import { ExportPets } from './application/export-pets.use-case';
import { FileReader } from './application/file-reader';
import { GetImport } from './application/get-import.use-case';
import { ImportRepository } from './application/import.repository';
import { ProcessImports } from './application/process-imports.use-case';
import { SubmitImport } from './application/submit-import.use-case';
import { ImportsController } from './http/imports.controller';
import { CsvNdjsonFileReader } from './infrastructure/csv-ndjson-file-reader';
import { ImportWorker } from './infrastructure/import-worker';
import { SqlExportLookups } from './infrastructure/sql-export-lookups';
import { SqlImportRepository } from './infrastructure/sql-import.repository';

/**
 * A shelter's animals in and out as files (docs/adr/0066): imports kept as resources and worked
 * through by the background work of any instance, a batch a step; exports streamed from a keyset
 * walk. The pets themselves are changed and read only through ShelterPets, the pets feature's port.
 */
@Feature({
  tag: {
    name: 'data',
    description: "A shelter's animals in and out as files: imports with a dry run, exports",
  },
  tables: { owns: ['imports'], uses: ['organizations', 'categories'] },
})
@Module({
  imports: [HttpModule, IdempotencyModule, EventRecordingModule, BackgroundModule, PetPortsModule],
  controllers: [ImportsController],
  providers: [
    SubmitImport,
    GetImport,
    ProcessImports,
    ExportPets,
    ImportWorker,
    { provide: ImportRepository, useClass: SqlImportRepository },
    { provide: FileReader, useClass: CsvNdjsonFileReader },
    { provide: ExportLookups, useClass: SqlExportLookups },
  ],
})
export class ImportsModule {}
