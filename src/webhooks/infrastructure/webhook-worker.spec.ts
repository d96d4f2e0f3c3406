import { DeliverWebhook } from '../application/deliver-webhook.use-case';
import {
  Claim,
  ClaimedDelivery,
  ClaimRequest,
  DeliveryQueue,
} from '../application/webhook-delivery';
import { BackgroundPacing } from '../../platform/background/background-pacing';
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

  /** The endpoints with due deliveries each claim says it chose among. */
  endpointsDue = 1;

  claim(request: ClaimRequest): Promise<Claim> {
    this.requests.push({
      limit: request.limit,
      owners: Object.fromEntries(request.heldByOwner),
      destinations: Object.fromEntries(request.heldByDestination),
    });
    const claimed = { deliveries: this.next.shift() ?? [], endpointsDue: this.endpointsDue };
    if (!this.held) return Promise.resolve(claimed);
    return new Promise((resolve) => (this.answer = () => resolve(claimed)));
  }
}

const pacing = new BackgroundPacing();

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await tick();
};

const metrics = {
  attemptDuration: { observe: () => undefined },
  deliveries: { inc: () => undefined },
} as unknown as WebhookMetrics;

/**
 * A worker of 10 attempts (4 per endpoint) on a scripted queue, whose attempts end when the test
 * says (`ends`).
 */
function scriptedWorker(pollIntervalMs: number, concurrency = 10) {
  const queue = new ScriptedQueue();
  const { ends, deliver } = controlledDeliverer();
  const worker = new WebhookWorker(queue as unknown as DeliveryQueue, deliver, metrics, pacing, {
    concurrency,
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
    // The worker claims again within a millisecond or two of each change, later on a loaded
    // machine: each expectation waits for the claim that follows the change, then holds it.
    const lastClaim = async (expected: object) => {
      await until(() => JSON.stringify(queue.requests.at(-1)) === JSON.stringify(expected));
      expect(queue.requests.at(-1)).toEqual(expected);
    };
    worker.onApplicationBootstrap();
    await lastClaim({
      limit: 7,
      owners: { '7': 2, '8': 1 },
      destinations: { 'a.example:443': 2, 'b.example:443': 1 },
    });
    ends.get(1)!();
    ends.get(3)!();
    await lastClaim({ limit: 9, owners: { '7': 1 }, destinations: { 'b.example:443': 1 } });
    ends.get(2)!();
    await lastClaim({ limit: 10, owners: {}, destinations: {} });
    await worker.onApplicationShutdown();
  });

  it('claims again at once when an attempt ends while a claim is under way, not a poll interval later', async () => {
    const { queue, ends, worker } = scriptedWorker(60_000);
    queue.held = true;
    queue.next.push([delivery(1, 1, '7', 'a.example:443')]);
    worker.onApplicationBootstrap();
    await tick();
    queue.answer!();
    // After a pause as long as the first claim took, the second is under way (it will find
    // nothing) when the attempt ends.
    await until(() => queue.requests.length === 2);
    expect(queue.requests).toHaveLength(2);
    ends.get(1)!();
    await tick();
    queue.answer!();
    await until(() => queue.requests.length === 3);
    expect(queue.requests).toHaveLength(3);
    queue.held = false;
    queue.answer!();
    expect(queue.requests.at(-1)).toEqual({ limit: 10, owners: {}, destinations: {} });
    await worker.onApplicationShutdown();
  });

  it('claims again only after a pause as long as the last claim took', async () => {
    const { queue, ends, worker } = scriptedWorker(60_000);
    const started: number[] = [];
    const claim = queue.claim.bind(queue);
    queue.claim = async (request) => {
      started.push(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 40));
      return claim(request);
    };
    queue.next.push([delivery(1, 1, '7', 'a.example:443')], [delivery(2, 2, '8', 'b.example:443')]);
    worker.onApplicationBootstrap();
    await until(() => started.length === 3);
    ends.get(1)!();
    ends.get(2)!();
    await worker.onApplicationShutdown();
    // Each claim took 40 ms: the next began 80 ms after it, not 40.
    expect(started[1] - started[0]).toBeGreaterThanOrEqual(75);
    expect(started[2] - started[1]).toBeGreaterThanOrEqual(75);
  });

  it('paces a claim woken by an attempt that ended at once, when the worker was full', async () => {
    const { queue, ends, worker } = scriptedWorker(60_000, 1);
    const started: number[] = [];
    const claim = queue.claim.bind(queue);
    queue.claim = async (request) => {
      started.push(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 40));
      const claimed = await claim(request);
      // Each attempt ends as soon as it starts: the full worker is woken at once.
      setImmediate(() =>
        claimed.deliveries.forEach(({ id }) => ends.get(id as unknown as number)!()),
      );
      return claimed;
    };
    queue.next.push([delivery(1, 1, '7', 'a.example:443')], [delivery(2, 1, '7', 'a.example:443')]);
    worker.onApplicationBootstrap();
    await until(() => started.length === 3);
    await worker.onApplicationShutdown();
    expect(started[1] - started[0]).toBeGreaterThanOrEqual(75);
    expect(started[2] - started[1]).toBeGreaterThanOrEqual(75);
  });

  it('after a claim among a thousand endpoints with due deliveries, claims once no request is under way', async () => {
    const queue = new ScriptedQueue();
    queue.endpointsDue = 1_000;
    const { ends, deliver } = controlledDeliverer();
    const requests = new BackgroundPacing();
    const worker = new WebhookWorker(
      queue as unknown as DeliveryQueue,
      deliver,
      metrics,
      requests,
      {
        concurrency: 10,
        endpointConcurrency: 4,
        pollIntervalMs: 60_000,
      },
    );
    const answered = requests.requestStarted();
    queue.next.push([delivery(1, 1, '7', 'a.example:443')]);
    worker.onApplicationBootstrap();
    await until(() => queue.requests.length === 1);
    // A light claim would be followed by the next within a few ms; this one waits for the request.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(queue.requests).toHaveLength(1);
    answered();
    await until(() => queue.requests.length === 2);
    expect(queue.requests).toHaveLength(2);
    ends.get(1)!();
    await worker.onApplicationShutdown();
  });
});
