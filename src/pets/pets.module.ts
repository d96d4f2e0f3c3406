import { Module } from '@nestjs/common';
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
    { provide: OpenApplications, useClass: SqlOpenApplications },
  ],
})
export class PetsModule {}
