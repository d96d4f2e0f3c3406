import { Injectable } from '@nestjs/common';
import { Pet, PetId } from '../domain/pet';
import { PetNotFoundError } from '../domain/pet.errors';
import { PetRepository } from './pet.repository';

@Injectable()
export class GetPet {
  constructor(private readonly pets: PetRepository) {}

  async execute(id: PetId): Promise<Pet> {
    const pet = await this.pets.findById(id);
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }
}
