import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HttpModule } from '../platform/http/http.module';
import { CreatePet } from './application/create-pet.use-case';
import { IdempotencyModule } from '../platform/idempotency/idempotency.module';
import { GetPet } from './application/get-pet.use-case';
import { ListPets } from './application/list-pets.use-case';
import { PetRepository } from './application/pet.repository';
import { PetsController } from './http/pets.controller';
import { PetOrmEntity } from './infrastructure/pet.orm-entity';
import { TypeOrmPetRepository } from './infrastructure/typeorm-pet.repository';
import { Feature } from '../platform/features/feature';

@Feature({ tag: { name: 'animals', description: 'Animals of the pet store' } })
@Module({
  imports: [HttpModule, IdempotencyModule, TypeOrmModule.forFeature([PetOrmEntity])],
  controllers: [PetsController],
  providers: [
    ListPets,
    CreatePet,
    GetPet,
    { provide: PetRepository, useClass: TypeOrmPetRepository },
  ],
})
export class PetsModule {}
