import { Module } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { SqlStatements } from '../platform/database/sql-statements';
import { BackgroundPacing } from '../platform/background/background-pacing';
import { BackgroundModule } from '../platform/background/background.module';
import { EventRecordingModule } from '../platform/event-log/event-recording.module';
import { Feature } from '../platform/features/feature';
import { HttpModule } from '../platform/http/http.module';
import { IdempotencyModule } from '../platform/idempotency/idempotency.module';
import { ObservabilityModule } from '../platform/observability/observability.module';
import { AddressPolicy } from './application/address-policy';
import { CreateWebhookEndpoint } from './application/create-webhook-endpoint.use-case';
import { DeleteWebhookEndpoint } from './application/delete-webhook-endpoint.use-case';
import { DeliverWebhook } from './application/deliver-webhook.use-case';
import { DeliveryPolicy } from './application/delivery-policy';
import { GetWebhookEndpoint } from './application/get-webhook-endpoint.use-case';
import { ListWebhookDeliveries } from './application/list-webhook-deliveries.use-case';
import { ListWebhookEndpoints } from './application/list-webhook-endpoints.use-case';
import { PingWebhookEndpoint } from './application/ping-webhook-endpoint.use-case';
import { RecoverWebhookDeliveries } from './application/recover-webhook-deliveries.use-case';
import { RotateWebhookSecret } from './application/rotate-webhook-secret.use-case';
import { UpdateWebhookEndpoint } from './application/update-webhook-endpoint.use-case';
import { DeliveryQueue, HostResolver, WebhookSender } from './application/webhook-delivery';
import { WebhookEndpoints, WebhookSecrets } from './application/webhook-endpoints';
import { EndpointCreationBudgetGuard } from './http/endpoint-creation-budget.guard';
import { WebhookEndpointsController } from './http/webhook-endpoints.controller';
import { AesWebhookSecrets } from './infrastructure/aes-webhook-secrets';
import { DeliveryFanOut } from './infrastructure/delivery-fan-out';
import { DnsHostResolver } from './infrastructure/dns-host-resolver';
import { HttpWebhookSender } from './infrastructure/http-webhook-sender';
import { SqlDeliveryQueue } from './infrastructure/sql-delivery-queue';
import { SqlWebhookEndpoints } from './infrastructure/sql-webhook-endpoints';
import { WebhookMetrics } from './infrastructure/webhook-metrics';
import { WebhookWorker } from './infrastructure/webhook-worker';

/**
 * Webhooks (docs/adr/0031): the keys' endpoints, the deliveries fanned out from recorded events,
 * and the worker every instance runs. It reads what the features record; no feature knows it.
 * Its operations carry the tag of the events feature (`events`), which declares it.
 */
@Feature({
  tag: {
    name: 'events',
    description: 'What happened: the event feed, and webhook endpoints that receive events',
  },
  tables: {
    owns: ['webhook_endpoints', 'webhook_deliveries', 'webhook_attempts', 'webhook_fan_out'],
    uses: ['events', 'api_keys'],
  },
})
@Module({
  imports: [
    HttpModule,
    IdempotencyModule,
    EventRecordingModule,
    ObservabilityModule,
    BackgroundModule,
  ],
  controllers: [WebhookEndpointsController],
  providers: [
    CreateWebhookEndpoint,
    ListWebhookEndpoints,
    GetWebhookEndpoint,
    UpdateWebhookEndpoint,
    DeleteWebhookEndpoint,
    RotateWebhookSecret,
    PingWebhookEndpoint,
    ListWebhookDeliveries,
    RecoverWebhookDeliveries,
    DeliverWebhook,
    DeliveryFanOut,
    WebhookMetrics,
    EndpointCreationBudgetGuard,
    { provide: WebhookEndpoints, useClass: SqlWebhookEndpoints },
    { provide: HostResolver, useClass: DnsHostResolver },
    {
      provide: AddressPolicy,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new AddressPolicy(config.webhooks.allowedNetworks),
    },
    {
      provide: DeliveryPolicy,
      inject: [AppConfig],
      useFactory: ({ webhooks }: AppConfig) =>
        new DeliveryPolicy(webhooks.retrySchedule, webhooks.disableAfterHours),
    },
    {
      provide: WebhookSecrets,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new AesWebhookSecrets(config.webhooks.secretsKey),
    },
    {
      provide: DeliveryQueue,
      inject: [SqlStatements, AppConfig],
      useFactory: (sql: SqlStatements, config: AppConfig) =>
        new SqlDeliveryQueue(sql, config.webhooks.leaseSeconds),
    },
    {
      provide: WebhookSender,
      inject: [AddressPolicy, HostResolver, AppConfig],
      useFactory: (addresses: AddressPolicy, resolver: HostResolver, config: AppConfig) =>
        new HttpWebhookSender(addresses, resolver, config.webhooks.timeoutMs),
    },
    {
      provide: WebhookWorker,
      inject: [DeliveryQueue, DeliverWebhook, WebhookMetrics, BackgroundPacing, AppConfig],
      useFactory: (
        queue: DeliveryQueue,
        deliver: DeliverWebhook,
        metrics: WebhookMetrics,
        pacing: BackgroundPacing,
        { webhooks }: AppConfig,
      ) =>
        new WebhookWorker(queue, deliver, metrics, pacing, {
          concurrency: webhooks.concurrency,
          endpointConcurrency: webhooks.endpointConcurrency,
          pollIntervalMs: webhooks.pollIntervalMs,
        }),
    },
  ],
})
export class WebhooksModule {}
