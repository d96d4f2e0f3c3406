import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { constants, getPriority } from 'node:os';
import { inFile, plain } from '../../../test/support/test-images';
import { ImageWorkerLostError, UndecodableImageError } from '../domain/photo.errors';
import { ImageWorkers } from './image-workers';

const header = { format: 'jpeg', width: 400, height: 300 } as const;

/** The scheduling policy of each thread of a process (sched(7): 0 normal, 5 SCHED_IDLE). */
const policiesOf = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).map((thread) => {
    const stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
  });
const [SCHED_NORMAL, SCHED_IDLE] = [0, 5];
const hasChrt = process.platform === 'linux' && existsSync('/usr/bin/chrt');

// Real child processes, forked from the TypeScript sources (image-worker-from-sources.cjs).

// Each test starts real worker processes, which compile the TypeScript sources they run and
// decode images: seconds on a busy machine, past Jest's default 5 s.
jest.setTimeout(30_000);
describe('ImageWorkers', () => {
  let workers: ImageWorkers;
  /** The file of a 400 × 300 JPEG, as the service's spool holds an upload. */
  let jpeg: string;
  let bytes: Buffer;

  beforeAll(async () => {
    bytes = await plain(400, 300).jpeg().toBuffer();
    jpeg = (await inFile(bytes)).path;
  });
  beforeEach(() => (workers = new ImageWorkers(2, 1, 30_000)));
  afterEach(() => workers.close());

  it('processes images in other processes, at the lowest CPU priority', async () => {
    await workers.start();
    const pids = workers.pids;
    expect(pids).toHaveLength(2);
    for (const pid of pids) {
      expect(pid).not.toBe(process.pid);
      expect(getPriority(pid)).toBe(constants.priority.PRIORITY_LOW);
      expect(getPriority(pid)).toBeGreaterThan(getPriority(process.pid));
    }
    const images = await Promise.all([1, 2].map(() => workers.variants(jpeg, header)));
    for (const image of images) expect([image.width, image.height]).toEqual([400, 300]);
  });

  it('runs every thread of a worker under SCHED_IDLE where chrt is installed (libvips’ too), else niced only', async () => {
    // Nice 19 is only a smaller share; SCHED_IDLE gives way at once to any request that wakes.
    await workers.start();
    await workers.variants(jpeg, header);
    for (const pid of workers.pids) {
      const policies = policiesOf(pid);
      expect(policies.length).toBeGreaterThan(4);
      expect(new Set(policies)).toEqual(new Set([hasChrt ? SCHED_IDLE : SCHED_NORMAL]));
    }
    expect(policiesOf(process.pid)[0]).toBe(SCHED_NORMAL);
  });

  it("answers a body that does not decode as the client's fault", async () => {
    const truncated = await inFile(bytes.subarray(0, 500));
    await expect(workers.variants(truncated.path, header)).rejects.toThrow(UndecodableImageError);
  });

  it('fails the jobs of a worker that dies with a retryable error, and replaces it at the next job', async () => {
    await workers.start();
    const [first] = workers.pids;
    const big = await inFile(await plain(4000, 3000).jpeg().toBuffer());
    const lost = workers.variants(big.path, { format: 'jpeg', width: 4000, height: 3000 });
    process.kill(first, 'SIGKILL');
    const error = await lost.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageWorkerLostError);
    expect((error as ImageWorkerLostError).retryAfterSeconds).toBe(1);
    const image = await workers.variants(jpeg, header);
    expect(image.width).toBe(400);
    expect(workers.pids).not.toContain(first);
    expect(workers.pids).toHaveLength(2);
  });

  it('ends a worker that does not answer an image within its deadline, and replaces it', async () => {
    // 2 s: the replacement, started from the sources at the lowest CPU priority, must process
    // the next image within the same deadline; at 500 ms it missed it on a busy machine.
    const stalled = new ImageWorkers(1, 1, 2_000);
    try {
      await stalled.start();
      const [hung] = stalled.pids;
      // A stopped process answers nothing, as a worker stuck inside libvips would.
      process.kill(hung, 'SIGSTOP');
      const error = await stalled.variants(jpeg, header).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImageWorkerLostError);
      expect(() => process.kill(hung, 0)).toThrow();
      const image = await stalled.variants(jpeg, header);
      expect(image.width).toBe(400);
      expect(stalled.pids).not.toContain(hung);
    } finally {
      await stalled.close();
    }
  });
});
