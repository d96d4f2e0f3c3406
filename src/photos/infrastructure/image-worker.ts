/**
 * An image worker: a child process the service forks (image-workers.ts) to decode and resize
 * uploads outside its own memory, at a lower CPU priority than requests. It takes one message a
 * job, `{ id, path, header }` (the file the upload waits in, and its header as the service read it,
 * read again here before a pixel is decoded), and answers `{ id, image }` or `{ id, failure }`:
 * `undecodable` for bytes that do not decode (the client's fault, a 400), anything else as
 * `crashed`. It exits when its parent goes (the IPC channel closes), so no worker outlives its
 * service.
 */
import { UndecodableImageError } from '../domain/photo.errors';
import { ImageHeader } from './image-header';
import { checkedHeaderOf, variantsOf } from './image-pipeline';
import type { JobAnswer } from './image-workers';

interface Job {
  id: number;
  path: string;
  header: ImageHeader;
}

const send = (answer: JobAnswer) => process.send!(answer);

process.on('message', (job: Job) => {
  checkedHeaderOf(job.path, job.header)
    .then((header) => variantsOf(job.path, header))
    .then(
      (image) => send({ id: job.id, image }),
      (error: unknown) =>
        send({
          id: job.id,
          failure: error instanceof UndecodableImageError ? 'undecodable' : 'crashed',
        }),
    );
});
process.on('disconnect', () => process.exit(0));
// Ready: the parent sends nothing before this, so no job meets a worker still loading.
send({ ready: true });
