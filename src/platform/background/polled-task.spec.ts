import { Logger } from '@nestjs/common';
import { BackgroundPacing } from './background-pacing';
import { PolledTask } from './polled-task';

class Steps extends PolledTask {
  readonly started: number[] = [];
  constructor(
    private readonly answers: (boolean | Error)[],
    logger: Logger,
    private readonly interval = 60_000,
  ) {
    super(logger, 'do the work', new BackgroundPacing());
  }
  protected async step(): Promise<boolean> {
    this.started.push(Date.now());
    const answer = this.answers.shift() ?? false;
    if (answer instanceof Error) throw answer;
    return answer;
  }
  protected intervalMs(): number {
    return this.interval;
  }
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('PolledTask', () => {
  it('steps again at once while a step says more is waiting, then waits the interval', async () => {
    const task = new Steps([true, true, false, true], new Logger('test'));
    task.onApplicationBootstrap();
    await until(() => task.started.length === 3);
    await new Promise((r) => setTimeout(r, 50));
    // The third step left nothing: the fourth waits for the (hour-long) interval.
    expect(task.started).toHaveLength(3);
    await task.onApplicationShutdown();
  });

  it('warns of a failing step at most every 10 s, and tries again after the interval', async () => {
    const logger = new Logger('test');
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const task = new Steps([new Error('down'), new Error('down'), false], logger, 1);
    task.onApplicationBootstrap();
    await until(() => task.started.length === 3);
    await task.onApplicationShutdown();
    expect(task.started.length).toBeGreaterThanOrEqual(3);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('Could not do the work: down');
  });

  it('paces its steps: after a step that left more, a pause as long as it took', async () => {
    class SlowSteps extends Steps {
      protected override async step(): Promise<boolean> {
        const more = await super.step();
        await new Promise((r) => setTimeout(r, 40));
        return more;
      }
    }
    const task = new SlowSteps([true, true, false], new Logger('test'));
    task.onApplicationBootstrap();
    await until(() => task.started.length === 3);
    await task.onApplicationShutdown();
    // Each step took 40 ms and paused as long: 80 ms from one start to the next, not 40.
    expect(task.started[1] - task.started[0]).toBeGreaterThanOrEqual(75);
    expect(task.started[2] - task.started[1]).toBeGreaterThanOrEqual(75);
  });

  it('stops at shutdown without waiting out the interval', async () => {
    const task = new Steps([], new Logger('test'));
    task.onApplicationBootstrap();
    await until(() => task.started.length === 1);
    // The interval is a minute, past the test's own timeout: only an aborted wait ends in time.
    await expect(task.onApplicationShutdown()).resolves.toBeUndefined();
  });
});
