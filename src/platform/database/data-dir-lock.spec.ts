import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLock, DataDirLockedError } from './data-dir-lock';

describe('DataDirLock', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const lockFile = () => join(dir, 'service.lock');
  const holder = (pid: number, host = hostname()) =>
    writeFileSync(lockFile(), JSON.stringify({ pid, host }));

  it('holds the directory until released, naming this process', () => {
    const lock = DataDirLock.acquire(dir);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
    });
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('creates a directory that does not exist yet, as on a first run', () => {
    const fresh = join(dir, 'not', 'yet');
    const lock = DataDirLock.acquire(fresh);
    expect(existsSync(join(fresh, 'service.lock'))).toBe(true);
    lock.release();
  });

  it('refuses a directory a running process holds, naming the directory and the pid', () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      holder(other.pid!);
      expect(() => DataDirLock.acquire(dir)).toThrow(DataDirLockedError);
      expect(() => DataDirLock.acquire(dir)).toThrow(
        new RegExp(`DATA_DIR ${dir} is in use by process ${other.pid}:`),
      );
    } finally {
      other.kill();
    }
  });

  it('refuses a directory held from another host, which it cannot check', () => {
    holder(1, 'another-host');
    expect(() => DataDirLock.acquire(dir)).toThrow(/in use by process 1 on another-host/);
  });

  it('takes over from a holder that died', async () => {
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.on('exit', resolve));
    holder(dead.pid!);
    DataDirLock.acquire(dir).release();
  });

  it('takes over a lock its own pid left (a previous life of a container)', () => {
    holder(process.pid);
    const lock = DataDirLock.acquire(dir);
    lock.release();
  });

  it('treats a fresh, unreadable lock as a process still writing it', () => {
    writeFileSync(lockFile(), '');
    expect(() => DataDirLock.acquire(dir)).toThrow(/in use by a process that is starting/);
  });

  it('gives the lock it holds to a second claim of the same process', () => {
    const lock = DataDirLock.acquire(dir);
    expect(DataDirLock.acquire(dir)).toBe(lock);
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('never releases a lock another process has taken since', () => {
    const lock = DataDirLock.acquire(dir);
    holder(999_999, 'another-host');
    lock.release();
    expect(existsSync(lockFile())).toBe(true);
  });
});
