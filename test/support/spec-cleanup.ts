import { killLeftoverServices } from './service-process';
import { closeLeftoverApps } from './open-apps';

// An e2e spec boots the application, often in a hook: on a loaded machine (CI on two cores) one
// boot took 5-7 s, past Jest's default 5 s, and failed a whole file. A spec that needs longer
// still says so itself (jest.setTimeout in the file overrides this).
jest.setTimeout(30_000);

// After the file's own describe blocks' hooks: what a failed start or a forgotten close left.
afterAll(async () => {
  killLeftoverServices();
  await closeLeftoverApps();
});
