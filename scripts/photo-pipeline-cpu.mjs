// npm run photos:cpu: the CPU one 12-megapixel JPEG costs on its way to the four variants of a
// photo (issue 34: at most 400 ms), measured with process.cpuUsage around the pipeline, which
// counts libuv's threads, where sharp works, as well as the main thread. Runs the built service's
// own pipeline (dist/), one image at a time, after two unmeasured runs: the header read as the
// service reads it, then what an image worker runs (variantsOf), here in this process so that
// cpuUsage sees it (docs/adr/0063).
import { variantsOf } from '../dist/src/photos/infrastructure/image-pipeline.js';
import { sharpLibrary } from '../dist/src/photos/infrastructure/sharp-library.js';
import { samplePhotoJpeg } from '../dist/src/photos/infrastructure/sample-photo.js';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

const runs = Number(process.argv[2] ?? 15);
const image = await samplePhotoJpeg(4000, 3000);
const pipeline = async (bytes) => {
  const header = await sharpLibrary()(bytes, { limitInputPixels: false }).metadata();
  const { width, height } = header.autoOrient;
  return variantsOf(bytes, { width, height, hasAlpha: header.hasAlpha });
};

const measure = async () => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const processed = await pipeline(image);
  const { user, system } = process.cpuUsage(cpu);
  return { cpuMs: (user + system) / 1000, wallMs: performance.now() - started, processed };
};

await measure();
await measure();
const samples = [];
for (let i = 0; i < runs; i++) samples.push(await measure());
const sorted = (key) => samples.map((sample) => sample[key]).sort((a, b) => a - b);
const at = (values, q) => values[Math.min(values.length - 1, Math.floor(q * values.length))];
const { processed } = samples[0];
const widths = ['small', 'medium', 'large', 'full']
  .map((size) => `${processed.sizes[size].width}×${processed.sizes[size].height}`)
  .join(', ');

console.log(
  `${runs} runs of a ${(image.length / 1e6).toFixed(1)} MB 12-megapixel JPEG to ${widths}` +
    ` on ${cpus()[0].model}, Node ${process.versions.node}, libvips ${(await import('sharp')).default.versions.vips}:`,
);
for (const key of ['cpuMs', 'wallMs']) {
  const values = sorted(key);
  console.log(
    `  ${key === 'cpuMs' ? 'CPU ' : 'wall'}: median ${at(values, 0.5).toFixed(0)} ms, p90 ${at(values, 0.9).toFixed(0)} ms, min ${values[0].toFixed(0)} ms, max ${values.at(-1).toFixed(0)} ms`,
  );
}
