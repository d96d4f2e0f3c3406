import { Module } from '@nestjs/common';
import { HttpModule } from '../platform/http/http.module';
import { IdempotencyModule } from '../platform/idempotency/idempotency.module';
import { CancelLapsedOrders } from './application/cancel-lapsed-orders.use-case';
import { GetInventory } from './application/get-inventory.use-case';
import { GetOrder } from './application/get-order.use-case';
import { PetInventory } from './application/inventory';
import { ListOrders } from './application/list-orders.use-case';
import { OrderRepository } from './application/order.repository';
import { PlaceOrder } from './application/place-order.use-case';
import { UpdateOrder } from './application/update-order.use-case';
import { OrdersController } from './http/orders.controller';
import { LapsedOrderSweeper } from './infrastructure/lapsed-order.sweeper';
import { SqlPetInventory } from './infrastructure/sql-pet-inventory';
import { SqlOrderRepository } from './infrastructure/sql-order.repository';
import { PetPortsModule } from '../pets/pet-ports.module';
import { Feature } from '../platform/features/feature';
import { EventRecordingModule } from '../platform/event-log/event-recording.module';

/** Orders: the hold of a pet and its end (an adoption), and the inventory of pets by status. */
@Feature({
  tag: { name: 'store', description: 'Adoptions: orders for animals, and the inventory' },
  tables: { owns: ['orders', 'pet_status_counts'], uses: ['pets', 'api_keys'] },
})
@Module({
  imports: [HttpModule, IdempotencyModule, EventRecordingModule, PetPortsModule],
  controllers: [OrdersController],
  providers: [
    PlaceOrder,
    ListOrders,
    GetOrder,
    UpdateOrder,
    GetInventory,
    CancelLapsedOrders,
    LapsedOrderSweeper,
    { provide: OrderRepository, useClass: SqlOrderRepository },
    { provide: PetInventory, useClass: SqlPetInventory },
  ],
})
export class OrdersModule {}
