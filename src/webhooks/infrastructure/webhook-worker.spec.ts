import { DeliverWebhook } from '../application/deliver-webhook.use-case';
import { ClaimedDelivery, ClaimRequest, DeliveryQueue } from '../application/webhook-delivery';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookWorker } from './webhook-worker';

/** A delivery of `owner`'s endpoint `endpointId` at `destination`. */
const delivery = (id: number, endpointId: number, owner: string, destination: string) =>
  ({
    id,
    attempt: 1,
    step: 1,
    endpoint: { id: endpointId, url: `https://${destination}/`, destination, owner },
  }) as unknown as ClaimedDelivery;

/** A queue that hands out what a test gives it, and keeps a copy of what each claim said. */
class ScriptedQueue {
  readonly requests: { limit: number; owners: object; destinations: object }[] = [];
  next: ClaimedDelivery[][] = [];

  claim(request: ClaimRequest): Promise<ClaimedDelivery[]> {
    this.requests.push({
      limit: request.limit,
      owners: Object.fromEntries(request.heldByOwner),
      destinations: Object.fromEntries(request.heldByDestination),
    });
    return Promise.resolve(this.next.shift() ?? []);
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('WebhookWorker', () => {
  it('tells each claim what it holds per owner and per destination, and forgets what ended', async () => {
    const queue = new ScriptedQueue();
    const ends = new Map<number, () => void>();
    const deliver = {
      execute: (claimed: ClaimedDelivery) =>
        new Promise((resolve) =>
          ends.set(claimed.id, () => resolve({ outcome: 'succeeded', durationMs: 1 })),
        ),
    } as unknown as DeliverWebhook;
    const metrics = {
      attemptDuration: { observe: () => undefined },
      deliveries: { inc: () => undefined },
    } as unknown as WebhookMetrics;
    const worker = new WebhookWorker(queue as unknown as DeliveryQueue, deliver, metrics, {
      concurrency: 10,
      endpointConcurrency: 4,
      pollIntervalMs: 1,
    });
    queue.next.push([
      delivery(1, 1, '7', 'a.example:443'),
      delivery(2, 2, '7', 'b.example:443'),
      delivery(3, 3, '8', 'a.example:443'),
    ]);
    worker.onApplicationBootstrap();
    await tick();
    expect(queue.requests.at(-1)).toEqual({
      limit: 7,
      owners: { '7': 2, '8': 1 },
      destinations: { 'a.example:443': 2, 'b.example:443': 1 },
    });
    ends.get(1)!();
    ends.get(3)!();
    await tick();
    expect(queue.requests.at(-1)).toEqual({
      limit: 9,
      owners: { '7': 1 },
      destinations: { 'b.example:443': 1 },
    });
    ends.get(2)!();
    await tick();
    expect(queue.requests.at(-1)).toEqual({ limit: 10, owners: {}, destinations: {} });
    await worker.onApplicationShutdown();
  });
});
