import { readFile } from 'node:fs/promises';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { ImageFile, ImageProcessor, ProcessedImage } from '../application/image-processor';
import { ImageFormat } from '../domain/image-format';
import { checkDimensions } from '../domain/image-rules';
import { ImageProcessingBusyError } from '../domain/photo.errors';
import { FairQueue } from './fair-queue';
import { ImageWorkers } from './image-workers';
import { ImageHeader, readImageHeader } from './image-header';

/**
 * The header from the bytes in memory, or, when it runs past them (a JPEG whose metadata segments
 * come first can), from the whole file: the same reader either way.
 */
async function headerOf(image: ImageFile, format: ImageFormat): Promise<ImageHeader> {
  try {
    return readImageHeader(image.head, format);
  } catch (error) {
    if (image.head.length >= image.size) throw error;
    return readImageHeader(await readFile(image.path), format);
  }
}

/** Seconds a client refused for a full queue waits: about as long as a few images take. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The image pipeline on sharp (libvips) (docs/adr/0043, 0063). The header is read here, in the
 * service, without libvips (image-header.ts), and judged before anything waits; the decode and the
 * variants run in image worker processes (ImageWorkers: PHOTO_WORKERS of them, niced), never in
 * the service's memory: the service never loads sharp. At most PHOTO_CONCURRENCY images are
 * processed at once on an instance; the rest wait in a queue per organisation, served in turn
 * (FairQueue), at most PHOTO_QUEUE_PER_ORGANIZATION of one organisation and PHOTO_QUEUE_LENGTH in
 * all; beyond that an upload is refused (503, Retry-After) rather than held.
 */
@Injectable()
export class SharpImageProcessor extends ImageProcessor implements OnApplicationShutdown {
  private readonly queue: FairQueue;
  readonly workers: ImageWorkers;

  constructor(config: AppConfig) {
    super();
    const { concurrency, queueLength, queuePerOrganization, workers, jobSeconds } = config.photos;
    this.queue = new FairQueue(
      concurrency,
      queuePerOrganization,
      queueLength,
      () => new ImageProcessingBusyError(BUSY_RETRY_AFTER_SECONDS),
    );
    this.workers = new ImageWorkers(workers, Math.ceil(concurrency / workers), jobSeconds * 1000);
  }

  async process(image: ImageFile, format: ImageFormat, queue: string): Promise<ProcessedImage> {
    // The header alone, before anything waits for a slot: a decompression bomb is refused at once.
    // Read in JavaScript (image-size): libvips, its library and its allocations, stays in the
    // workers, which read the header again with it before a pixel is decoded.
    const header = await headerOf(image, format);
    // Every side and the pixels from the header alone: nothing is decoded for an image refused.
    checkDimensions(header.width, header.height);
    // While it waits for its turn, the image is a file; the worker reads it from there.
    return this.queue.run(queue, () => this.workers.variants(image.path, header));
  }

  /** Images under way and waiting, for tests and metrics. */
  get load(): { running: number; waiting: number } {
    return this.queue.load;
  }

  /** After the server has closed and its requests are answered: no image is under way then. */
  async onApplicationShutdown(): Promise<void> {
    await this.workers.close();
  }
}
