import { NewPet, Pet } from '../domain/pet';
import { isPetStatus } from '../../common/pet-status';
import { PetOrmEntity } from './pet.orm-entity';

export const PetMapper = {
  toDomain(row: PetOrmEntity): Pet {
    if (!isPetStatus(row.status)) {
      throw new Error(`Stored pet ${row.id} has an unknown status.`);
    }
    return {
      id: Number(row.id),
      name: row.name,
      categoryId: Number(row.categoryId),
      status: row.status,
    };
  },

  toPersistence(pet: NewPet): Omit<PetOrmEntity, 'id'> {
    return { name: pet.name, categoryId: String(pet.categoryId), status: pet.status };
  },
};
