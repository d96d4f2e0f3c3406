import { Module } from '@nestjs/common';
import { PetHolds } from './application/ports/pet-holds';
import { PetOwnership } from './application/ports/pet-ownership';
import { PetPhotoProjection } from './application/ports/pet-photo-projection';
import { SqlPetHolds } from './infrastructure/sql-pet-holds';
import { SqlPetOwnership } from './infrastructure/sql-pet-ownership';
import { SqlPetPhotoProjection } from './infrastructure/sql-pet-photo-projection';

/**
 * The pets feature's ports for the other features (docs/adr/0068): a feature that needs to know
 * or change a pet imports this module and the port from `src/pets/application/ports/`, the only
 * parts of the pets feature the layer rules let another feature import.
 */
@Module({
  providers: [
    { provide: PetOwnership, useClass: SqlPetOwnership },
    { provide: PetHolds, useClass: SqlPetHolds },
    { provide: PetPhotoProjection, useClass: SqlPetPhotoProjection },
  ],
  exports: [PetOwnership, PetHolds, PetPhotoProjection],
})
export class PetPortsModule {}
