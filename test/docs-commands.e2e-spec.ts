import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { commandsOf, DocCommand, outputsOf, scriptOf, unmatched } from './support/doc-commands';
import { freePort } from './support/peers/processes';
import { ServiceProcess, startService, stopService } from './support/service-process';

/**
 * The docs are tests (CONTRACT.md, "The first hour"; docs/operations.md, "The docs are tests"):
 * every command README.md and then docs/api.md show runs, in order, in one bash session against
 * one fresh instance started as `npm start` starts it with nothing configured, and every answer
 * they show is checked line by line: ids and statuses as shown, only what the documents say will
 * differ (instants, keys, `...`) free.
 */
jest.setTimeout(300_000);

const ROOT = join(__dirname, '..');
const ADMIN_TOKEN = 'docs-commands-suite-admin-token-0123456789';
const DOCUMENTS = [
  ['README.md', join(ROOT, 'README.md')],
  ['docs/api.md', join(ROOT, 'docs', 'api.md')],
] as const;

/** Commands the run does in its own way, and why: every other command runs as written. */
const DONE_BY_THE_RUN = new Map<string, string>([
  [
    'npm install && npm start',
    'installed from the lock file and built by the run; the spec starts the built service as npm start does',
  ],
  ['npm start', 'the service runs already, on the database the commands above use'],
  ['npm test', 'the command that runs this spec'],
]);

/** How the run sends a command: as written, but on this instance. */
function asRun(
  command: DocCommand,
  { port, receiverPort, firstRunKey }: { port: number; receiverPort: number; firstRunKey: string },
): string {
  const text = command.text.trim();
  const done = DONE_BY_THE_RUN.get(text);
  if (done !== undefined) return `: ${JSON.stringify(done)}`;
  // Production's database and Redis are this instance's own: the embedded engine, which
  // `npm run apikey` reaches through DATA_DIR while the service runs.
  if (/^export DATABASE_URL=\S+ REDIS_URL=\S+$/.test(text)) {
    return `: ${JSON.stringify("the instance's own database and Redis")}`;
  }
  return (
    command.text
      .replace(/^KEY=pet_live_…/, `KEY=${firstRunKey}`)
      .replaceAll('http://localhost:3000', `http://127.0.0.1:${port}`)
      // The receiver of "A delivery" is docs-webhook-receiver's to run: its port here is one the
      // run holds (TEST_PORTS), where nothing listens, not 4000, which may be anyone's.
      .replaceAll('http://127.0.0.1:4000/', `http://127.0.0.1:${receiverPort}/`)
  );
}

/**
 * Runs a script in bash, its stdout and stderr both into one pipe, in the order written. A pipe, as
 * a terminal would be, made by bash: `take` tees answers to /dev/stderr, which Linux cannot open
 * when it is a socket (what Node gives a child for "pipe"), and would truncate were it a file.
 */
function bash(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `exec > >(cat) 2>&1\n${script}`], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    // Once `cat` too has written everything: it holds the pipe until then.
    child.stdout.on('close', () => resolve(output));
  });
}

describe('the commands of README.md and docs/api.md, in order, as written', () => {
  let parent: string;
  let service: ServiceProcess | undefined;

  beforeAll(() => (parent = mkdtempSync(join(tmpdir(), 'pet-adoption-docs-'))));
  afterAll(async () => {
    await stopService(service);
    rmSync(parent, { recursive: true, force: true });
  });

  it('checks an answer line by line: ids as shown, instants and `...` free', () => {
    const shown = [
      'HTTP/1.1 200 OK',
      'etag: "2"',
      '{"id":1,"name":"Rex",...,"updatedAt":"2026-11-24T06:00:40.048Z"}',
    ];
    const output =
      'HTTP/1.1 200 OK\r\nETag: "2"\r\n\r\n{"id":1,"name":"Rex","version":2,"updatedAt":"2031-01-02T03:04:05.678Z"}';
    expect(unmatched(shown, output)).toEqual([]);
    expect(unmatched(shown, output.replace('"id":1', '"id":2'))).toEqual([shown[2]]);
    expect(unmatched(shown, output.replace('"2"', '"3"'))).toEqual([shown[1]]);
    expect(unmatched(['{"available":0}'], '{"available":0,"sold":1}')).toEqual(['{"available":0}']);
  });

  it('has each walk-through say where it starts: after the commands before it', () => {
    const api = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
    const walkThroughs = api
      .split(/^(?=## )/m)
      .filter((section) => section.startsWith('## Walk-through'));
    expect(walkThroughs.length).toBeGreaterThanOrEqual(3);
    for (const [index, section] of walkThroughs.entries()) {
      const opening = section.slice(0, section.indexOf('```')).replace(/\s+/g, ' ');
      const start =
        index === 0
          ? /after the README's commands/
          : /after (the walk-through above|both of them|the walk-throughs above)/;
      expect({ heading: section.split('\n')[0], says: start.test(opening) }).toEqual({
        heading: section.split('\n')[0],
        says: true,
      });
    }
  });

  it('runs every command and finds every answer shown', async () => {
    const env = {
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      DATA_DIR: join(parent, 'data'),
      ADMIN_TOKEN,
      // Its default, as `npm start` logs: the start-up logs come before the first-run key.
      LOG_LEVEL: undefined,
      // docs/api.md, "A delivery": to try the webhooks on one's own machine.
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    };
    service = await startService(env, 60_000);
    const firstRunKey = /Bearer (pet_live_[A-Za-z0-9_-]{43})/.exec(service.output())?.[1];
    expect(firstRunKey).toBeDefined();
    // Shown after the start-up logs, the last of which says where it serves, framed, nothing
    // logged inside the frame (README, "Run it").
    const lines = service.output().split('\n');
    const serving = lines.findIndex((line) => line.includes('Serving the API at'));
    const [opens, closes] = lines.flatMap((line, at) => (/^=+$/.test(line) ? [at] : []));
    expect({ serving: serving >= 0, before: serving < opens }).toEqual({
      serving: true,
      before: true,
    });
    const framed = lines.slice(opens, closes + 1);
    expect(framed.join('\n')).toContain(`   ${firstRunKey}`);
    expect(framed.filter((line) => line.startsWith('{') || line.includes('[Nest]'))).toEqual([]);
    const port = Number(new URL(service.url).port);
    const receiverPort = await freePort();

    const commands = DOCUMENTS.flatMap(([name, path]) => commandsOf(path, name));
    // The parser finds them all: a document with no command, or no answer at all, is a parser's miss.
    for (const [name] of DOCUMENTS) {
      expect(
        commands.filter((command) => command.at.startsWith(`${name}:`)).length,
      ).toBeGreaterThan(3);
    }
    expect(commands.filter((command) => command.answer.length > 0).length).toBeGreaterThan(40);

    // curl's progress meter, which it shows only when its output is not a terminal, stays off.
    writeFileSync(join(parent, '.curlrc'), '--silent\n--show-error\n');
    const output = await bash(
      scriptOf(commands, (command) =>
        asRun(command, { port, receiverPort, firstRunKey: firstRunKey! }),
      ),
      {
        PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
        HOME: process.env.HOME ?? parent,
        CURL_HOME: parent,
        DATA_DIR: env.DATA_DIR,
        ADMIN_TOKEN,
      },
    );
    const { outputs, ended } = outputsOf(output);
    const failures = commands.flatMap((command, index) => {
      if (outputs[index] === undefined) {
        return ended ? [`${command.at}: ${command.text.trim()}\n  has no output of its own`] : [];
      }
      const missing = unmatched(command.answer, outputs[index]);
      if (missing.length === 0) return [];
      return [
        `${command.at}: ${command.text.trim()}\n  shown, not found:\n    ${missing.join('\n    ')}\n  output:\n    ${outputs[index].trim().split('\n').join('\n    ')}`,
      ];
    });
    const stopped = ended
      ? []
      : [`stopped at ${commands[outputs.length - 1]?.at}: ${output.slice(-2000)}`];
    expect([...stopped, ...failures]).toEqual([]);
  });
});
