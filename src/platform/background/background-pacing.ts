import { Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

/**
 * The step after a heavy one waits this many times as long as it took: each kind of heavy work
 * holds at most a quarter of the time, so that two (the fan-out and the claims) hold half.
 */
const HEAVY_PAUSE = 3;
/**
 * How long the step after a heavy one waits at most for a moment when no request is under way:
 * under constant load the work still moves, a heavy step a second at least.
 */
export const QUIET_WAIT_MS = 1_000;

/** What pacing needs to know of the step before, beyond how long it took. */
export interface PacedStep {
  /** The step's work was heavy: the next waits for a moment without requests too. */
  heavy?: boolean;
  /** The instance stops: waiting ends at once. */
  signal?: AbortSignal;
  /** When the step ended (performance.now()); now by default. */
  endedAt?: number;
}

/**
 * How an instance's background work (the events' settling, the webhooks' fan-out and their
 * delivery claims) leaves room for its requests (docs/adr/0056). After a step, the next waits as
 * long as the step took: at most half of one core and of one database backend for each kind of
 * work. After a heavy step (a fan-out statement making as many deliveries as one may, a claim
 * choosing among thousands of endpoints: one key's very many endpoints), the next waits three
 * times as long, and then for a moment when none of this instance's requests is under way, so
 * that heavy steps take a quarter of the time and rarely meet a request. The usual steps never
 * wait for requests, so that small fan-outs keep up under steady load. Heavy is a step's work,
 * not its time: under load every statement takes longer.
 */
@Injectable()
export class BackgroundPacing {
  private requests = 0;
  private readonly waiting = new Set<() => void>();

  /** Counts the server's requests from their arrival until their answer is sent or abandoned. */
  install(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', (request, reply, done) => {
      reply.raw.once('close', this.requestStarted());
      done();
    });
  }

  /** Counts a request under way until the function it returns is called (once or more). */
  requestStarted(): () => void {
    this.requests += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.requests -= 1;
      if (this.requests === 0) for (const go of [...this.waiting]) go();
    };
  }

  /**
   * Waits until the step after one that took `tookMs` may start: `tookMs` after it ended (at
   * `endedAt`, performance.now()'s clock; now by default), and after a `heavy` one when no
   * request is under way too. At once once `signal` aborts.
   */
  async after(
    tookMs: number,
    { heavy = false, signal, endedAt = performance.now() }: PacedStep = {},
  ): Promise<void> {
    const left = tookMs * (heavy ? HEAVY_PAUSE : 1) - (performance.now() - endedAt);
    if (left > 0) await this.wait(left, false, signal);
    if (heavy && this.requests > 0) await this.wait(QUIET_WAIT_MS, true, signal);
  }

  /**
   * Resolves after `ms`, once `signal` aborts, or, `untilQuiet`, when no request is under way
   * any more.
   */
  private wait(ms: number, untilQuiet: boolean, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const go = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', go);
        this.waiting.delete(go);
        resolve();
      };
      const timer = setTimeout(go, ms);
      signal?.addEventListener('abort', go, { once: true });
      if (untilQuiet) this.waiting.add(go);
    });
  }
}
