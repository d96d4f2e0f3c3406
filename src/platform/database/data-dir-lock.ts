import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

const LOCK_FILE = 'service.lock';
/** A lock file younger than this with no readable holder is one being written right now. */
const WRITING_GRACE_MS = 5_000;
/** A takeover guard older than this was left by a process that died while holding it. */
const GUARD_STALE_MS = 10_000;

interface Holder {
  pid: number;
  host: string;
}

/** Another process holds the data directory: this one must not open it. */
export class DataDirLockedError extends Error {
  constructor(directory: string, holder: Holder | null) {
    super(
      `DATA_DIR ${directory} is in use by ${
        holder
          ? `process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}`
          : 'a process that is starting'
      }: stop it, or give this process another DATA_DIR.`,
    );
    this.name = 'DataDirLockedError';
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function read(path: string): { text: string; ageMs: number } | null {
  try {
    return { text: readFileSync(path, 'utf8'), ageMs: Date.now() - statSync(path).mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function parse(text: string): Holder | null {
  try {
    const holder = JSON.parse(text) as Holder;
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : null;
  } catch {
    return null;
  }
}

/** Whether the holder may still be running: only a process on this host can be known dead. */
function mayBeRunning(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  // Our own pid in the file is a previous life of this container or machine, not us.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An exclusive hold on the embedded engine's data directory, so that two processes never serve
 * from one copy of the data (each would keep its own in memory and overwrite the other's). The
 * lock file is created with O_EXCL and names its holder; a holder known to be dead is replaced.
 */
export class DataDirLock {
  /** Locks this process holds, by file: acquiring one again returns it. */
  private static readonly held = new Map<string, DataDirLock>();

  private constructor(
    private readonly path: string,
    private readonly content: string,
  ) {}

  /**
   * Takes the directory, or throws DataDirLockedError naming its holder. Re-entrant: a process
   * may claim its directory early (to refuse at once, before anything starts) and open it later.
   */
  static acquire(directory: string): DataDirLock {
    const dir = resolve(directory);
    const path = join(dir, LOCK_FILE);
    const mine = DataDirLock.held.get(path);
    if (mine) return mine;
    // On a first run the directory does not exist yet.
    mkdirSync(dir, { recursive: true });
    const content = JSON.stringify({ pid: process.pid, host: hostname() } satisfies Holder);
    for (let attempt = 0; attempt < 200; attempt++) {
      try {
        const fd = openSync(path, 'wx');
        writeSync(fd, content);
        closeSync(fd);
        const lock = new DataDirLock(path, content);
        DataDirLock.held.set(path, lock);
        return lock;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const found = read(path);
      if (found === null) continue;
      const holder = parse(found.text);
      if (holder ? mayBeRunning(holder) : found.ageMs < WRITING_GRACE_MS) {
        throw new DataDirLockedError(dir, holder);
      }
      DataDirLock.removeStale(path, found.text);
    }
    throw new Error(`Could not lock DATA_DIR ${dir}: its lock file keeps changing.`);
  }

  /**
   * Removes a stale lock file, under a short guard so that two processes finding the same stale
   * lock cannot both remove it and then remove each other's fresh one.
   */
  private static removeStale(path: string, staleText: string): void {
    const guard = `${path}.takeover`;
    try {
      closeSync(openSync(guard, 'wx'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const left = read(guard);
      if (left !== null && left.ageMs > GUARD_STALE_MS) unlinkSync(guard);
      pause(20);
      return;
    }
    try {
      if (read(path)?.text === staleText) unlinkSync(path);
    } finally {
      unlinkSync(guard);
    }
  }

  /** Gives the directory up, if this process still holds it. */
  release(): void {
    DataDirLock.held.delete(this.path);
    if (read(this.path)?.text === this.content) unlinkSync(this.path);
  }
}
