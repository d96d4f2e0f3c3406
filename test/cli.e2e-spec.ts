import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { apiClient } from './support/http';
import { buildOnce, ServiceProcess, startService, stopService } from './support/service-process';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'src', 'access', 'cli', 'apikey.js');
/** What `npm run apikey` runs: the keys' commands above, and the organisations'. */
const COMMAND_LINE = join(ROOT, 'dist', 'src', 'command-line.js');

// Each command is a Node process that boots the application context: about 2 s apiece on a busy
// 2-core machine, three in the first test. Never judged by its duration.
jest.setTimeout(30_000);

/** npm run apikey, as an operator runs it: its answers, and its refusals, are plain lines. */
describe('the apikey command line', () => {
  beforeAll(() => buildOnce(), 120_000);

  async function apikey(...args: string[]): Promise<{ code: number; output: string }> {
    return run(process.execPath, [CLI, ...args]);
  }

  async function run(
    command: string,
    args: string[],
    env: Record<string, string | undefined> = {},
  ): Promise<{ code: number; output: string }> {
    try {
      const { stdout, stderr } = await promisify(execFile)(command, args, {
        cwd: ROOT,
        env: { ...process.env, API_KEY_PREFIX: 'pet_test_', ...env },
      });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, output: failed.stdout + failed.stderr };
    }
  }

  it('issues a key shown once, lists it without it, and revokes it', async () => {
    const issued = await apikey('issue', '--name', 'CLI shop', '--plan', 'pro');
    expect(issued.code).toBe(0);
    const key = /"key": "(pet_test_[A-Za-z0-9_-]{43})"/.exec(issued.output)![1];
    const id = /"id": (\d+)/.exec(issued.output)![1];
    const listed = await apikey('list');
    expect(listed.output).toContain('CLI shop');
    expect(listed.output).not.toContain(key);
    expect(listed.output).not.toMatch(/"hash"/);
    expect(await apikey('revoke', id)).toEqual({ code: 0, output: `Revoked key ${id}.\n` });
  });

  it('prints ids as numbers, as the API answers them: the key’s and its organisation’s', async () => {
    const issued = await apikey(
      ...['issue', '--name', 'CLI desk', '--plan', 'pro', '--organization', '1'],
    );
    expect(issued.code).toBe(0);
    // The JSON before the closing advice.
    const key = JSON.parse(issued.output.split('\n\n')[0]) as {
      id: unknown;
      organizationId: unknown;
    };
    expect(key).toMatchObject({ id: expect.any(Number), organizationId: 1 });
    const listed = JSON.parse((await apikey('list')).output) as {
      id: unknown;
      organizationId: unknown;
    }[];
    expect(listed).toContainEqual(expect.objectContaining({ id: key.id, organizationId: 1 }));
    for (const { id, organizationId } of listed) {
      expect(typeof id).toBe('number');
      expect(organizationId === null || typeof organizationId === 'number').toBe(true);
    }
  });

  it.each(['99999999', '9999999999999999999', '99999999999999999999', 'abc'])(
    'refuses to revoke %s with one plain line',
    async (id) => {
      expect(await apikey('revoke', id)).toEqual({
        code: 1,
        output: `No active API key with id ${id}.\n`,
      });
    },
  );

  describe('on the embedded engine, while the service runs on it', () => {
    let parent: string;
    let dataDir: string;
    let service: ServiceProcess | undefined;
    const embedded = () => ({
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      API_KEY_PREFIX: 'pet_test_',
    });

    beforeAll(() => {
      parent = mkdtempSync(join(tmpdir(), 'pet-adoption-cli-'));
      dataDir = join(parent, 'data');
    });
    afterAll(async () => {
      await stopService(service);
      rmSync(parent, { recursive: true, force: true });
    });

    it('issues a key through the running service, which serves with it at once and keeps it', async () => {
      // The embedded engine's first start creates its files: slow on a busy machine.
      service = await startService(embedded(), 40_000);
      const lock = readFileSync(join(dataDir, 'service.lock'), 'utf8');
      const issued = await run(
        process.execPath,
        [CLI, 'issue', '--name', 'While running', '--plan', 'free'],
        embedded(),
      );
      expect(issued.code).toBe(0);
      const key = /"key": "(pet_test_[A-Za-z0-9_-]{43})"/.exec(issued.output)![1];
      // The service still holds its files, and answers the new key.
      expect(readFileSync(join(dataDir, 'service.lock'), 'utf8')).toBe(lock);
      const api = apiClient(service.url, { authorization: `Bearer ${key}` });
      expect((await api.get('/v1/pets')).status).toBe(200);
      // The organisations' command line shares the way in (databaseOfCommandLine).
      const flags = ['--email', 'a@embedded.example', '--city', 'Bristol', '--country', 'GB'];
      const created = await run(
        process.execPath,
        [COMMAND_LINE, 'org', 'create', '--name', 'Embedded Rescue', ...flags],
        embedded(),
      );
      expect(created.code).toBe(0);
      const organization = Number(/"id": (\d+)/.exec(created.output)![1]);
      const served = await api.get(`/v1/organizations/${organization}`);
      expect(served.body).toMatchObject({ name: 'Embedded Rescue', email: 'a@embedded.example' });

      // Stopped, the service leaves no address behind; the command line then opens the files
      // itself, and finds the key the service's engine stored.
      await stopService(service);
      service = undefined;
      expect(existsSync(join(dataDir, 'engine.url'))).toBe(false);
      const listed = await run(process.execPath, [CLI, 'list'], embedded());
      expect(listed.code).toBe(0);
      expect(listed.output).toContain('While running');
    }, 90_000);
  });

  describe('npm run apikey', () => {
    /**
     * A tree of its own with the build check's script in it, a source and a build: the tests
     * below date its files, never the project's (the other worker builds and runs from those).
     */
    function builtTree(): { root: string; source: string; built: string; script: string } {
      const root = mkdtempSync(join(tmpdir(), 'pet-adoption-build-'));
      const script = join(root, 'scripts', 'build-if-stale.mjs');
      const source = join(root, 'src', 'main.ts');
      const built = join(root, 'dist', 'src', 'main.js');
      for (const folder of ['scripts', 'src', 'libs', join('dist', 'src')]) {
        mkdirSync(join(root, folder), { recursive: true });
      }
      copyFileSync(join(ROOT, 'scripts', 'build-if-stale.mjs'), script);
      writeFileSync(join(root, 'package.json'), '{}\n');
      writeFileSync(source, 'export {};\n');
      writeFileSync(built, '"use strict";\n');
      const past = new Date(Date.now() - 60_000);
      for (const path of [
        join(root, 'package.json'),
        source,
        join(root, 'src'),
        join(root, 'libs'),
      ]) {
        utimesSync(path, past, past);
      }
      writeFileSync(join(root, 'dist', '.build-started'), `${new Date().toISOString()}\n`);
      return { root, source, built, script };
    }

    const isCurrent = async (script: string) =>
      (
        await run(process.execPath, [
          '--input-type=module',
          '-e',
          `import { buildIsCurrent } from ${JSON.stringify(script)}; console.log(buildIsCurrent());`,
        ])
      ).output.trim();

    it('does not rebuild a current build: four processes, none of them a build, and dist untouched', async () => {
      // Every Node process of the call (npm, the build check, the command) adds a line, its CPU
      // time, to the log as it exits: the processes are counted, whatever the machine's load.
      const probe = mkdtempSync(join(tmpdir(), 'pet-adoption-cpu-'));
      const log = join(probe, 'cpu.log');
      writeFileSync(
        join(probe, 'probe.cjs'),
        `process.on('exit', () => { const { user, system } = process.cpuUsage();
          require('node:fs').appendFileSync(${JSON.stringify(log)}, (user + system) / 1000 + '\\n'); });`,
      );
      const built = statSync(CLI).mtimeMs;
      try {
        const listed = await run('npm', ['run', '--silent', 'apikey', '--', 'list'], {
          NODE_OPTIONS: `--require ${join(probe, 'probe.cjs')}`,
        });
        expect(listed.code).toBe(0);
        expect(statSync(CLI).mtimeMs).toBe(built);
        const cpuMs = readFileSync(log, 'utf8').trim().split('\n').map(Number);
        // npm, the Node.js check, the build check and the command: four processes, about 2 s of
        // CPU in all here. A build would be a fifth (nest build, 18-28 s of CPU); a bound on the
        // CPU time itself failed on a busy machine (3.3 s), so the count is what is pinned.
        expect(cpuMs).toHaveLength(4);
      } finally {
        rmSync(probe, { recursive: true, force: true });
      }
    });

    it('knows a build is stale once a source file is newer than it', async () => {
      const tree = builtTree();
      try {
        expect(await isCurrent(tree.script)).toBe('true');
        const later = new Date(Date.now() + 1_000);
        utimesSync(tree.source, later, later);
        expect(await isCurrent(tree.script)).toBe('false');
      } finally {
        rmSync(tree.root, { recursive: true, force: true });
      }
    });

    it('never rebuilds over an existing build, stale or not: it says so and runs it', async () => {
      // A service may be running from dist/: a build would rewrite it under the service.
      expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.apikey).toContain(
        'node scripts/build-if-stale.mjs --keep-existing && ',
      );
      const tree = builtTree();
      try {
        const later = new Date(Date.now() + 1_000);
        utimesSync(tree.source, later, later);
        const built = statSync(tree.built).mtimeMs;
        const checked = await run(process.execPath, [tree.script, '--keep-existing']);
        expect(checked).toEqual({
          code: 0,
          output:
            'dist/ is older than the sources: this runs the last build (npm run build, or restarting npm start, updates it).\n',
        });
        expect(statSync(tree.built).mtimeMs).toBe(built);
      } finally {
        rmSync(tree.root, { recursive: true, force: true });
      }
    });
  });
});
