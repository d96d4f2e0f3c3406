import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule } from '../database/database.module';
import { CreatePet } from './application/create-pet.use-case';
import { GetPet } from './application/get-pet.use-case';
import { ListPets } from './application/list-pets.use-case';
import { PetRepository } from './application/pet.repository';
import { GetPetDeprecationHeaders, GetPetSunsetGuard } from './http/get-pet-deprecation';
import { PetsController } from './http/pets.controller';
import { PetOrmEntity } from './infrastructure/pet.orm-entity';
import { TypeOrmPetRepository } from './infrastructure/typeorm-pet.repository';

@Module({
  imports: [DatabaseModule, TypeOrmModule.forFeature([PetOrmEntity])],
  controllers: [PetsController],
  providers: [
    ListPets,
    CreatePet,
    GetPet,
    GetPetSunsetGuard,
    { provide: PetRepository, useClass: TypeOrmPetRepository },
  ],
})
export class PetsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(GetPetDeprecationHeaders)
      .forRoutes({ path: 'v1/pets/:petId', method: RequestMethod.GET });
  }
}
