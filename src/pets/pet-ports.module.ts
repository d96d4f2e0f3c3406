import { Module } from '@nestjs/common';
import { EventRecordingModule } from '../platform/event-log/event-recording.module';
import { PetRepository } from './application/pet.repository';
import { PetsOfShelters } from './application/pets-of-shelters';
import { PetHolds } from './application/ports/pet-holds';
import { PetOwnership } from './application/ports/pet-ownership';
import { PetPhotoProjection } from './application/ports/pet-photo-projection';
import { ShelterPets } from './application/ports/shelter-pets';
import { SqlPetHolds } from './infrastructure/sql-pet-holds';
import { SqlPetOwnership } from './infrastructure/sql-pet-ownership';
import { SqlPetPhotoProjection } from './infrastructure/sql-pet-photo-projection';
import { SqlPetRepository } from './infrastructure/sql-pet.repository';

/**
 * The pets feature's ports for the other features (docs/adr/0068): a feature that needs to know
 * or change a pet imports this module and the port from `src/pets/application/ports/`, the only
 * parts of the pets feature the layer rules let another feature import.
 */
@Module({
  // ShelterPets changes pets with the pets feature's own rules and events (docs/adr/0066).
  imports: [EventRecordingModule],
  providers: [
    { provide: PetRepository, useClass: SqlPetRepository },
    { provide: ShelterPets, useClass: PetsOfShelters },
    { provide: PetOwnership, useClass: SqlPetOwnership },
    { provide: PetHolds, useClass: SqlPetHolds },
    { provide: PetPhotoProjection, useClass: SqlPetPhotoProjection },
  ],
  exports: [PetOwnership, PetHolds, PetPhotoProjection, ShelterPets],
})
export class PetPortsModule {}
