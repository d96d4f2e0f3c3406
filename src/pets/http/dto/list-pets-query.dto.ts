import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../../platform/http/request/page-query.dto';
import { PET_STATUSES, PetStatus } from '../../../common/pet-status';

/** `limit`, `after`, and the status to filter by. */
export class ListPetsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Filters animals by availability status',
    enum: PET_STATUSES,
    enumName: 'PetStatus',
  })
  @IsOptional()
  @IsString({ message: 'status must be given once' })
  @IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` })
  status?: PetStatus;
}
