import { Module } from '@nestjs/common';
import { BackgroundModule } from '../platform/background/background.module';
import { PetPortsModule } from '../pets/pet-ports.module';
import { EventRecordingModule } from '../platform/event-log/event-recording.module';
import { Feature } from '../platform/features/feature';
import { HttpModule } from '../platform/http/http.module';
import { IdempotencyModule } from '../platform/idempotency/idempotency.module';
import { OrderPortsModule } from '../orders/orders-ports.module';
import { AddApplicationNote } from './application/add-application-note.use-case';
import { ApplicationRepository } from './application/application.repository';
import { EraseApplicant } from './application/erase-applicant.use-case';
import { EraseExpiredApplications } from './application/erase-expired-applications.use-case';
import { GetApplication } from './application/get-application.use-case';
import { GetQuestionnaire } from './application/get-questionnaire.use-case';
import { ListApplications } from './application/list-applications.use-case';
import { PutQuestionnaire } from './application/put-questionnaire.use-case';
import { SubmitApplication } from './application/submit-application.use-case';
import { UpdateApplication } from './application/update-application.use-case';
import { ApplicationsController } from './http/applications.controller';
import { ApplicationRetention } from './infrastructure/application-retention';
import { SqlApplicationRepository } from './infrastructure/sql-application.repository';

/**
 * Adoption applications: a shelter's questionnaire, applicants' answers, staff review, approval
 * holding the animal through an order, and the order's end ending the applications (docs/adr/0067).
 */
@Feature({
  tag: {
    name: 'applications',
    description: 'Adoption applications: questionnaires, review, approval through an order',
  },
  tables: {
    owns: ['applications', 'questionnaires'],
    uses: ['pets', 'orders', 'organizations', 'events'],
  },
})
@Module({
  imports: [
    HttpModule,
    IdempotencyModule,
    EventRecordingModule,
    BackgroundModule,
    OrderPortsModule,
    PetPortsModule,
  ],
  controllers: [ApplicationsController],
  providers: [
    SubmitApplication,
    ListApplications,
    GetApplication,
    UpdateApplication,
    AddApplicationNote,
    EraseApplicant,
    GetQuestionnaire,
    PutQuestionnaire,
    EraseExpiredApplications,
    ApplicationRetention,
    { provide: ApplicationRepository, useClass: SqlApplicationRepository },
  ],
})
export class ApplicationsModule {}
