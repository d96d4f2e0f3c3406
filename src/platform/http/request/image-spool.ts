import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';

/**
 * Where the image bodies an instance has let through wait while they are processed: a directory
 * of its own under the system's temporary directory (`TMPDIR`), made at the first upload and
 * removed at shutdown. An upload is a file there from its first byte to its answer, so that the
 * images waiting for their turn sit on disk, not in the service's memory (docs/adr/0064); at most
 * `PHOTO_BODY_MEMORY_MB` of them at once (`ImageBodyBudget`).
 */
@Injectable()
export class ImageSpool implements OnApplicationShutdown {
  private directory: Promise<string> | undefined;
  private made = 0;

  /** A new file's path in the spool; the file itself is made by whoever writes it. */
  async newFile(): Promise<string> {
    this.directory ??= mkdtemp(join(tmpdir(), 'pet-adoption-uploads-'));
    return join(await this.directory, `${++this.made}.image`);
  }

  /** The files in the spool now, one an upload under way: for tests and an operator's tools. */
  async files(): Promise<string[]> {
    if (!this.directory) return [];
    const directory = await this.directory;
    return (await readdir(directory)).map((name) => join(directory, name));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.directory) await rm(await this.directory, { recursive: true, force: true });
  }
}
