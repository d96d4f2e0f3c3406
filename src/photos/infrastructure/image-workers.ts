import { ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { delimiter, join } from 'node:path';
import { Logger } from '@nestjs/common';
import { ProcessedImage } from '../application/image-processor';
import { ImageWorkerLostError, UndecodableImageError } from '../domain/photo.errors';
import { ImageHeader } from './image-header';

/** What a worker answers: that it is ready, or a job's image or failure. */
export type JobAnswer =
  | { ready: true }
  | { id: number; image: ProcessedImage }
  | { id: number; failure: 'undecodable' | 'crashed' };

/** Seconds a client whose image's worker died waits before sending it again: a restart's time. */
const LOST_RETRY_AFTER_SECONDS = 1;

interface Job {
  resolve: (image: ProcessedImage) => void;
  reject: (error: Error) => void;
  /** Ends the worker when the image is not done in time (PHOTO_JOB_SECONDS). */
  deadline: NodeJS.Timeout;
}

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  jobs: Map<number, Job>;
  /** A send to it failed: its channel is broken, though `connected` may not say so yet. */
  broken: boolean;
}

/**
 * How the worker is started: compiled, the JavaScript beside this file (dist/); from the sources
 * (Jest, which runs TypeScript), the TypeScript one through the same SWC transform as the tests,
 * so that every test runs the real process and none needs a build.
 */
function workerModule(): { path: string; execArgv: string[] } {
  const compiled = join(__dirname, 'image-worker.js');
  if (existsSync(compiled)) return { path: compiled, execArgv: [] };
  return {
    path: join(__dirname, 'image-worker.ts'),
    execArgv: ['--require', join(__dirname, 'image-worker-from-sources.cjs')],
  };
}

/**
 * util-linux's `chrt`, where there is one on the PATH (Linux): it starts a worker under the
 * SCHED_IDLE policy, which in effect runs only on CPU time no other process wants and gives way
 * at once to one that wakes up (a request). Nice 19 is only a smaller share, which the kernel need
 * not preempt for a waking request. Measured: two busy loops under SCHED_IDLE on both cores left
 * the listing's p99 as on an idle machine (docs/adr/0063). Without chrt the worker is niced only.
 */
const CHRT = ((): string | undefined => {
  if (process.platform !== 'linux') return undefined;
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((directory) => join(directory, 'chrt'))
    .find((candidate) => existsSync(candidate));
})();

/**
 * A pool of image worker processes (image-worker.ts), forked when the first image comes and
 * restarted when one dies. Each runs at the lowest CPU priority (SCHED_IDLE, else nice 19), so that
 * requests always go first on a busy machine, and reads its images from their files (the
 * service's spool) into its own memory, with their pixels: none of it is the service's.
 * A job goes to the worker with the fewest under way; a worker that dies fails its jobs with
 * ImageWorkerLostError (503, Retry-After) and is replaced at the next job. A worker that has not
 * answered an image within its deadline is ended as if it had died: libvips stuck on one image
 * would otherwise hold its slot, and the organisations queued behind it, for ever.
 */
export class ImageWorkers {
  private readonly logger = new Logger('ImageWorkers');
  private readonly workers: (Worker | undefined)[];
  private nextId = 1;
  private closed = false;

  constructor(
    count: number,
    /** Images each worker processes at once: its libuv threads are sized to it. */
    private readonly perWorker: number,
    /** How long an image may take in a worker before that worker is ended (PHOTO_JOB_SECONDS). */
    private readonly deadlineMs: number,
  ) {
    this.workers = Array.from({ length: count }, () => undefined);
  }

  /** The variants of the image in the file at `path`, whose header the service read as `header`. */
  async variants(path: string, header: ImageHeader): Promise<ProcessedImage> {
    const worker = this.leastBusy();
    await worker.ready;
    const id = this.nextId++;
    return new Promise<ProcessedImage>((resolve, reject) => {
      const deadline = setTimeout(() => this.overdue(worker), this.deadlineMs);
      worker.jobs.set(id, { resolve, reject, deadline });
      worker.child.send({ id, path, header }, (error) => {
        if (!error) return;
        this.abandon(worker);
        if (worker.jobs.delete(id)) {
          clearTimeout(deadline);
          reject(this.lost());
        }
      });
    });
  }

  /** The workers' process ids, started or not yet: for tests and the operator's tools. */
  get pids(): number[] {
    return this.workers.flatMap((worker) => (worker?.child.pid ? [worker.child.pid] : []));
  }

  /** Starts every worker now (a test, or an operator's warm-up) and resolves when all are ready. */
  async start(): Promise<void> {
    await Promise.all(this.workers.map((_, slot) => this.workerAt(slot).ready));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.workers.map((worker) => {
        if (!worker || worker.child.exitCode !== null || worker.child.signalCode !== null) return;
        const exited = new Promise((resolve) => worker.child.once('exit', resolve));
        // A worker keeps nothing worth a clean exit; SIGKILL ends it even inside libvips.
        worker.child.kill('SIGKILL');
        return exited;
      }),
    );
  }

  private leastBusy(): Worker {
    let best = 0;
    for (let slot = 1; slot < this.workers.length; slot++) {
      if ((this.workers[slot]?.jobs.size ?? 0) < (this.workers[best]?.jobs.size ?? 0)) best = slot;
    }
    return this.workerAt(best);
  }

  private workerAt(slot: number): Worker {
    const current = this.workers[slot];
    // A worker whose channel closed or whose send failed is dead, though its exit (and even its
    // disconnection) may not have been reported yet: a job sent to it would be lost too (its send
    // fails first, and a loaded machine reports the rest later). Its exit handler leaves the new
    // worker in the slot.
    if (current?.child.connected && !current.broken) return current;
    if (this.closed) throw this.lost();
    const { path, execArgv } = workerModule();
    const child = fork(path, [], {
      // chrt replaces itself with Node: the same process, its channel and environment kept.
      ...(CHRT
        ? { execPath: CHRT, execArgv: ['--idle', '0', process.execPath, ...execArgv] }
        : { execArgv }),
      // Structured clone: the variants come back as bytes, not as JSON arrays of numbers.
      serialization: 'advanced',
      // One libuv thread per image at once (sharp reads an image's file within its job), and one
      // more for anything else.
      env: { ...process.env, UV_THREADPOOL_SIZE: String(this.perWorker + 1) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker: Worker = { child, jobs: new Map(), ready: Promise.resolve(), broken: false };
    worker.ready = new Promise<void>((resolve, reject) => {
      child.on('message', (answer: JobAnswer) => {
        if ('ready' in answer) return resolve();
        const job = worker.jobs.get(answer.id);
        if (!job) return;
        worker.jobs.delete(answer.id);
        clearTimeout(job.deadline);
        if ('image' in answer) job.resolve(answer.image);
        else
          job.reject(answer.failure === 'undecodable' ? new UndecodableImageError() : this.lost());
      });
      child.once('exit', (code, signal) => {
        if (this.workers[slot] === worker) this.workers[slot] = undefined;
        if (!this.closed) {
          this.logger.error(
            `Image worker ${child.pid} ended (${signal ?? `exit code ${code}`}); ${worker.jobs.size} image(s) lost, it is replaced at the next upload.`,
          );
        }
        for (const job of worker.jobs.values()) {
          clearTimeout(job.deadline);
          job.reject(this.lost());
        }
        worker.jobs.clear();
        reject(this.lost());
      });
      child.once('error', (error) => this.logger.error(`Image worker: ${error.message}`));
    });
    // A rejection nobody awaits yet (a worker that dies idle) is not an unhandled one.
    worker.ready.catch(() => undefined);
    this.lowerPriority(child);
    this.workers[slot] = worker;
    return worker;
  }

  /** Requests before images: the worker runs at the lowest priority (nice 19 on Unix). */
  private lowerPriority(child: ChildProcess): void {
    if (child.pid === undefined) return;
    try {
      setPriority(child.pid, constants.priority.PRIORITY_LOW);
    } catch (error) {
      this.logger.warn(`Image worker ${child.pid} keeps the service's priority: ${String(error)}`);
    }
  }

  /** A worker whose channel failed: never given another job, and ended for certain. */
  private abandon(worker: Worker): void {
    worker.broken = true;
    if (worker.child.exitCode === null && worker.child.signalCode === null)
      worker.child.kill('SIGKILL');
  }

  /** A worker past an image's deadline: ended, its images answered as lost, replaced when next needed. */
  private overdue(worker: Worker): void {
    if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
    this.logger.error(
      `Image worker ${worker.child.pid} took more than ${this.deadlineMs / 1000} s on an image (PHOTO_JOB_SECONDS): it is ended.`,
    );
    worker.child.kill('SIGKILL');
  }

  private lost(): ImageWorkerLostError {
    return new ImageWorkerLostError(LOST_RETRY_AFTER_SECONDS);
  }
}
