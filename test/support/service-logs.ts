/**
 * The lines the service's loggers write while a spec runs: Nest's ConsoleLogger writes `log`,
 * `debug` and `verbose` to stdout and `warn` and `error` to stderr, at the moment of each call, so
 * watching both streams catches every line of every test app of the process, whatever logged it
 * (the request observer, the error filter, a background task). Warnings and errors still reach
 * the terminal; the rest is only collected, so that a spec logging at `verbose` stays readable.
 */
export interface ServiceLogs {
  readonly lines: string[];
  /** Stops collecting; the lines stay. */
  stop(): void;
}

export function collectServiceLogs(): ServiceLogs {
  const lines: string[] = [];
  const collect = (chunk: string | Uint8Array) =>
    lines.push(...String(chunk).split('\n').filter(Boolean));
  const stderr = process.stderr.write.bind(process.stderr);
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    collect(chunk);
    return true;
  });
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
    collect(chunk);
    return stderr(chunk, ...(rest as []));
  });
  return {
    lines,
    stop() {
      out.mockRestore();
      err.mockRestore();
    },
  };
}
