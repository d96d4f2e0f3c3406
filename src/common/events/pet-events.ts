import { declareEventTypes } from './event-types';

/**
 * The events of a pet: the pets feature records them, and so does a feature that moves a pet
 * without owning it (an order making it pending), which is why they are declared in the shared
 * kernel beside the pet as it is answered (PetPayload). Public to every key reading pets.
 */
export const PET_EVENTS = declareEventTypes({
  'pet.created': {
    readers: { everyoneWith: 'pets:read' },
    description: 'A pet was added to the catalogue.',
  },
  'pet.updated': {
    readers: { everyoneWith: 'pets:read' },
    description: 'A pet changed: by its staff, or its status by an order.',
  },
  'pet.deleted': {
    readers: { everyoneWith: 'pets:read' },
    description: 'A pet was removed from the catalogue (the data is the pet as it was).',
  },
});
