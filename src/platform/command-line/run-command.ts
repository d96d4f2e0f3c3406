/** A command line's work: what it prints; an Error it throws is a refusal, in its message. */
export type Command = (argv: string[]) => Promise<string>;

/**
 * Runs `command` on this process's arguments: its output on stdout, or its refusal's message on
 * stderr and exit code 1. Never a stack trace: an operator reads the line, a script the code.
 */
export function runCommand(command: Command, argv: string[] = process.argv.slice(2)): void {
  command(argv).then(
    (output) => console.log(output),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
