import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { BackgroundPacing } from '../../platform/background/background-pacing';
import { DeliverWebhook } from '../application/deliver-webhook.use-case';
import { ClaimedDelivery, DeliveryQueue } from '../application/webhook-delivery';
import { EndpointId } from '../domain/webhook-endpoint';
import { WebhookMetrics } from './webhook-metrics';

/**
 * A claim that chose among this many endpoints with due deliveries, or more, is heavy: the next
 * waits for a moment without requests too (docs/adr/0056). Thousands of endpoints with a backlog
 * are one key's or a few keys' very many endpoints; the usual claim reads a handful.
 */
const HEAVY_CLAIM_ENDPOINTS = 1_000;

export interface WorkerLimits {
  /** Attempts this instance holds at once (under way or waiting for their endpoint). */
  concurrency: number;
  /** Attempts under way at once to one endpoint from this instance. */
  endpointConcurrency: number;
  pollIntervalMs: number;
}

/**
 * The delivery worker every instance runs (docs/adr/0031): it claims due deliveries from
 * PostgreSQL while it has room, attempts each, and polls again at once while there is work, every
 * WEBHOOK_POLL_INTERVAL_MS when there is none. Attempts to one endpoint are capped, and an
 * endpoint at its cap is left out of the next claims; and each claim is told what the instance
 * holds per owner key and per destination, so that neither holds more than its fair share of
 * the instance (docs/adr/0047): a key whose receivers hang, or a host that hangs, holds only its
 * share, and the others' deliveries go on. Claims are paced as background work, and outcomes are
 * recorded one transaction at a time, those that came meanwhile together (docs/adr/0056).
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  /** Per endpoint: attempts under way, and claimed ones waiting for one of them to end. */
  private readonly endpoints = new Map<
    EndpointId,
    { running: number; waiting: ClaimedDelivery[] }
  >();
  private held = 0;
  /** Attempts held (under way or waiting) per owner key and per destination: none kept at 0. */
  private readonly heldByOwner = new Map<string, number>();
  private readonly heldByDestination = new Map<string, number>();
  private stopping = false;
  private readonly stopped = new AbortController();
  private loop?: Promise<void>;
  private readonly attempts = new Set<Promise<void>>();
  /** Wakes the loop early: room was made, or the worker is stopping. */
  private wake?: () => void;
  /**
   * An attempt ended since the last claim was sent. A claim under way may not have seen its room
   * (its owner's share was still taken), and no idle loop was there to be woken: without this,
   * the next claim waited a whole poll interval, and a key whose share is one attempt at a time
   * got one delivery per interval (measured: 1 in 270 ms on the embedded engine, whose claims and
   * completions are slow enough to overlap every time).
   */
  private roomMade = false;
  private lastWarning = 0;
  /** How long the last claim took, when it ended and whether it was heavy: the next is paced. */
  private lastClaim?: { took: number; endedAt: number; heavy: boolean };

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly deliver: DeliverWebhook,
    private readonly metrics: WebhookMetrics,
    private readonly pacing: BackgroundPacing,
    private readonly limits: WorkerLimits,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    this.wake?.();
    await this.loop;
    // Attempts under way end within the timeout; those waiting are taken over after the lease.
    await Promise.all(this.attempts);
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      this.roomMade = false;
      const room = this.limits.concurrency - this.held;
      let claimed: ClaimedDelivery[] = [];
      if (room > 0) {
        // Claiming is background work: paced, however the worker came to claim again (an
        // attempt that ended wakes it at once).
        if (this.lastClaim) {
          const { took, endedAt, heavy } = this.lastClaim;
          await this.pacing.after(took, { heavy, signal: this.stopped.signal, endedAt });
          if (this.stopping) break;
        }
        const started = performance.now();
        let endpointsDue = 0;
        try {
          ({ deliveries: claimed, endpointsDue } = await this.queue.claim({
            limit: room,
            perEndpoint: this.limits.endpointConcurrency,
            busy: this.busy(),
            concurrency: this.limits.concurrency,
            heldByOwner: this.heldByOwner,
            heldByDestination: this.heldByDestination,
          }));
        } catch (error) {
          this.warn(`Could not claim webhook deliveries: ${(error as Error).message}`);
        }
        const endedAt = performance.now();
        const heavy = endpointsDue >= HEAVY_CLAIM_ENDPOINTS;
        this.lastClaim = { took: endedAt - started, endedAt, heavy };
      }
      for (const delivery of claimed) this.hold(delivery);
      const full = this.held >= this.limits.concurrency;
      // Not when the worker began stopping during the claim: the wake-up went to no one.
      if ((claimed.length === 0 || full) && !this.roomMade && !this.stopping) await this.idle();
    }
  }

  /** Waits for the poll interval, or less if an attempt makes room or the worker stops. */
  private async idle(): Promise<void> {
    const controller = new AbortController();
    this.wake = () => controller.abort();
    await sleep(this.limits.pollIntervalMs, undefined, { signal: controller.signal }).catch(
      () => undefined,
    );
    this.wake = undefined;
  }

  /** Endpoints holding as many attempts as one may have: left out of the next claim. */
  private busy(): EndpointId[] {
    const cap = this.limits.endpointConcurrency;
    return [...this.endpoints]
      .filter(([, slot]) => slot.running + slot.waiting.length >= cap)
      .map(([id]) => id);
  }

  private hold(delivery: ClaimedDelivery): void {
    this.held += 1;
    count(this.heldByOwner, delivery.endpoint.owner, 1);
    count(this.heldByDestination, delivery.endpoint.destination, 1);
    const id = delivery.endpoint.id;
    let slot = this.endpoints.get(id);
    if (!slot) this.endpoints.set(id, (slot = { running: 0, waiting: [] }));
    slot.waiting.push(delivery);
    this.startWaiting(id);
  }

  private startWaiting(id: EndpointId): void {
    const slot = this.endpoints.get(id);
    if (!slot) return;
    while (slot.running < this.limits.endpointConcurrency && slot.waiting.length > 0) {
      const delivery = slot.waiting.shift()!;
      slot.running += 1;
      const attempt = this.attempt(delivery).finally(() => {
        this.attempts.delete(attempt);
        slot.running -= 1;
        this.held -= 1;
        count(this.heldByOwner, delivery.endpoint.owner, -1);
        count(this.heldByDestination, delivery.endpoint.destination, -1);
        if (slot.running === 0 && slot.waiting.length === 0) this.endpoints.delete(id);
        else this.startWaiting(id);
        this.roomMade = true;
        this.wake?.();
      });
      this.attempts.add(attempt);
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    try {
      const { outcome, durationMs } = await this.deliver.execute(delivery);
      // The sending alone, as the help text says: recording the outcome is the database's time.
      if (durationMs !== undefined) this.metrics.attemptDuration.observe(durationMs / 1000);
      this.metrics.deliveries.inc({ outcome });
    } catch (error) {
      // Not recorded: the delivery is attempted again when its lease ends.
      this.warn(`Could not complete webhook delivery ${delivery.id}: ${(error as Error).message}`);
    }
  }

  /** A warning at most every 10 s: an outage must not flood the log. */
  private warn(message: string): void {
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.logger.warn(message);
  }
}

/** Adds `by` to a count, forgetting it at 0. */
function count(counts: Map<string, number>, key: string, by: number): void {
  const value = (counts.get(key) ?? 0) + by;
  if (value > 0) counts.set(key, value);
  else counts.delete(key);
}
