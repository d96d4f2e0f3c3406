import { Global, Module } from '@nestjs/common';
import { ShelterPets } from '../common/shelter-pets';
import { PetsOfShelters } from './application/pets-of-shelters';
import { HttpModule } from '../platform/http/http.module';
import { CreatePet } from './application/create-pet.use-case';
import { IdempotencyModule } from '../platform/idempotency/idempotency.module';
import { DeletePet } from './application/delete-pet.use-case';
import { GetPet } from './application/get-pet.use-case';
import { ListPets } from './application/list-pets.use-case';
import { PetRepository } from './application/pet.repository';
import { UpdatePet } from './application/update-pet.use-case';
import { OpenApplications } from './application/open-applications';
import { ShowOpenApplications } from './application/show-open-applications.use-case';
import { SqlOpenApplications } from './infrastructure/sql-open-applications';
import { PetsController } from './http/pets.controller';
import { SqlPetRepository } from './infrastructure/sql-pet.repository';
import { Feature } from '../platform/features/feature';
import { EventRecordingModule } from '../platform/event-log/event-recording.module';

@Feature({
  tag: { name: 'animals', description: 'Animals of the pet store' },
  tables: { owns: ['pets'], uses: ['applications', 'categories', 'orders', 'organizations'] },
})
// Global: other features (imports and exports) reach the pets through ShelterPets, a port of the
// shared kernel, never through this module's files (docs/adr/0066).
@Global()
@Module({
  imports: [HttpModule, IdempotencyModule, EventRecordingModule],
  controllers: [PetsController],
  providers: [
    ListPets,
    CreatePet,
    GetPet,
    UpdatePet,
    DeletePet,
    ShowOpenApplications,
    { provide: PetRepository, useClass: SqlPetRepository },
    { provide: ShelterPets, useClass: PetsOfShelters },
    { provide: OpenApplications, useClass: SqlOpenApplications },
  ],
  exports: [ShelterPets],
})
export class PetsModule {}
