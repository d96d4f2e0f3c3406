import { Module } from '@nestjs/common';
import { PetPortsModule } from '../pets/pet-ports.module';
import { OrderHolds } from './application/ports/order-holds';
import { SqlOrderHolds } from './infrastructure/sql-order-holds';

/**
 * The orders feature's ports for the other features (docs/adr/0068): a feature that holds a pet
 * through an order (applications) imports this module and the port from
 * `src/orders/application/ports/`.
 */
@Module({
  imports: [PetPortsModule],
  providers: [{ provide: OrderHolds, useClass: SqlOrderHolds }],
  exports: [OrderHolds],
})
export class OrderPortsModule {}
