import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, MoreThan, Repository } from 'typeorm';
import { PetPageQuery, PetRepository } from '../application/pet.repository';
import { NewPet, Pet } from '../domain/pet';
import { PetMapper } from './pet.mapper';
import { PetOrmEntity } from './pet.orm-entity';

@Injectable()
export class TypeOrmPetRepository extends PetRepository {
  constructor(@InjectRepository(PetOrmEntity) private readonly rows: Repository<PetOrmEntity>) {
    super();
  }

  async add(pet: NewPet): Promise<Pet> {
    // One INSERT ... RETURNING: save() would wrap it in a transaction and cost three round trips.
    const result = await this.rows
      .createQueryBuilder()
      .insert()
      .values(PetMapper.toPersistence(pet))
      .returning(['id', 'name', 'categoryId', 'status'])
      .execute();
    const [row] = result.raw as Array<{
      id: string;
      name: string;
      category_id: string;
      status: string;
    }>;
    return PetMapper.toDomain({ ...row, categoryId: row.category_id });
  }

  async findById(id: bigint): Promise<Pet | null> {
    const row = await this.rows.findOneBy({ id: id.toString() });
    return row ? PetMapper.toDomain(row) : null;
  }

  async findPage({ status, after, limit }: PetPageQuery): Promise<Pet[]> {
    const where: FindOptionsWhere<PetOrmEntity> = {};
    if (status) where.status = status;
    if (after !== undefined) where.id = MoreThan(after.toString());
    const rows = await this.rows.find({ where, order: { id: 'ASC' }, take: limit });
    return rows.map(PetMapper.toDomain);
  }
}
