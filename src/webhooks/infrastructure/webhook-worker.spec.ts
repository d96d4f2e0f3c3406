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
  /** When set, a claim answers only once the test calls `answer`. */
  held = false;
  answer?: () => void;

  claim(request: ClaimRequest): Promise<ClaimedDelivery[]> {
    this.requests.push({
      limit: request.limit,
      owners: Object.fromEntries(request.heldByOwner),
      destinations: Object.fromEntries(request.heldByDestination),
    });
    const claimed = this.next.shift() ?? [];
    if (!this.held) return Promise.resolve(claimed);
    return new Promise((resolve) => (this.answer = () => resolve(claimed)));
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const metrics = {
  attemptDuration: { observe: () => undefined },
  deliveries: { inc: () => undefined },
} as unknown as WebhookMetrics;

/**
 * A worker of 10 attempts (4 per endpoint) on a scripted queue, whose attempts end when the test
 * says (`ends`).
 */
function scriptedWorker(pollIntervalMs: number) {
  const queue = new ScriptedQueue();
  const { ends, deliver } = controlledDeliverer();
  const worker = new WebhookWorker(queue as unknown as DeliveryQueue, deliver, metrics, {
    concurrency: 10,
    endpointConcurrency: 4,
    pollIntervalMs,
  });
  return { queue, ends, worker };
}

/** A deliverer whose attempts end when the test says. */
function controlledDeliverer() {
  const ends = new Map<number, () => void>();
  const deliver = {
    execute: (claimed: ClaimedDelivery) =>
      new Promise((resolve) =>
        ends.set(claimed.id, () => resolve({ outcome: 'succeeded', durationMs: 1 })),
      ),
  } as unknown as DeliverWebhook;
  return { ends, deliver };
}

describe('WebhookWorker', () => {
  it('tells each claim what it holds per owner and per destination, and forgets what ended', async () => {
    const { queue, ends, worker } = scriptedWorker(1);
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

  it('claims again at once when an attempt ends while a claim is under way, not a poll interval later', async () => {
    const { queue, ends, worker } = scriptedWorker(60_000);
    queue.held = true;
    queue.next.push([delivery(1, 1, '7', 'a.example:443')]);
    worker.onApplicationBootstrap();
    await tick();
    queue.answer!();
    await tick();
    // The second claim is under way (it will find nothing) when the attempt ends.
    expect(queue.requests).toHaveLength(2);
    ends.get(1)!();
    await tick();
    queue.answer!();
    await tick();
    expect(queue.requests).toHaveLength(3);
    queue.held = false;
    queue.answer!();
    expect(queue.requests.at(-1)).toEqual({ limit: 10, owners: {}, destinations: {} });
    await worker.onApplicationShutdown();
  });
});
