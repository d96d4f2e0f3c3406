import { Injectable } from '@nestjs/common';
import { newPet, NewPetInput, Pet } from '../domain/pet';
import { PetRepository } from './pet.repository';

@Injectable()
export class CreatePet {
  constructor(private readonly pets: PetRepository) {}

  async execute(input: NewPetInput): Promise<Pet> {
    return this.pets.add(newPet(input));
  }
}
