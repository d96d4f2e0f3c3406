import { readFileSync } from 'node:fs';

/**
 * The commands a document shows, and the answers it shows for them (docs/operations.md, "The
 * docs are tests"). In a ```sh block, a command is a line (with its `\` continuations) that is not
 * a comment; the comment lines right under it, up to a blank line or the next command, are the
 * answer it shows, one line of output each (`# {"id":1,...}`, `# HTTP/1.1 200 OK`, `# etag: "2"`).
 * A comment after a blank line is prose. Three spaces or more end an answer line: what follows is
 * an explanation (`# 304        no body`).
 */
export interface DocCommand {
  /** Where the document shows it: `README.md:42`. */
  at: string;
  text: string;
  answer: string[];
}

export function commandsOf(path: string, name: string): DocCommand[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const commands: DocCommand[] = [];
  let inBlock = false;
  let last: DocCommand | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('```')) {
      inBlock = !inBlock && line.trim() === '```sh';
      last = undefined;
      continue;
    }
    if (!inBlock) continue;
    const trimmed = line.trim();
    if (trimmed === '') {
      last = undefined;
    } else if (trimmed.startsWith('#')) {
      last?.answer.push(trimmed.replace(/^#\s?/, '').split(/ {3,}/)[0]);
    } else {
      let text = line;
      while (text.endsWith('\\') && i + 1 < lines.length)
        text = `${text.slice(0, -1)}${lines[++i]}`;
      last = { at: `${name}:${i + 1}`, text, answer: [] };
      commands.push(last);
    }
  }
  return commands;
}

const INSTANT = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z`;

/**
 * An answer line as a test of one line of output. What the documents say will differ, may:
 * `...` and `…` stand for anything, an instant for any instant, a key's prefix for any prefix.
 * Everything else, ids and statuses included, must be as shown. A header (`etag: "2"`) is
 * matched without regard to the case of its name, as HTTP reads it.
 */
export function matcherOf(shown: string): (line: string) => boolean {
  const header = /^([A-Za-z][A-Za-z0-9-]*): (.*)$/.exec(shown);
  const source = (text: string) =>
    text
      .split(
        /(\.\.\.|…|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z|pet_live_[A-Za-z0-9_-]{4})/,
      )
      .map((part) => {
        if (part === '...' || part === '…') return '.*';
        if (new RegExp(`^${INSTANT}$`).test(part)) return INSTANT;
        if (/^pet_live_/.test(part)) return 'pet_live_[A-Za-z0-9_-]{4}';
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
  if (header) {
    const name = `${header[1].toLowerCase()}: `;
    const value = new RegExp(`^${source(header[2])}$`);
    return (line) => line.toLowerCase().startsWith(name) && value.test(line.slice(name.length));
  }
  const whole = new RegExp(`^${source(shown)}$`);
  return (line) => whole.test(line);
}

/**
 * What of a shown answer the output does not hold: each answer line must match a line of the
 * output, in order. Empty when the output is as shown.
 */
export function unmatched(answer: string[], output: string): string[] {
  const lines = output.replace(/\r/g, '').split('\n');
  const missing: string[] = [];
  let from = 0;
  for (const shown of answer) {
    const matches = matcherOf(shown);
    const found = lines.findIndex((line, index) => index >= from && matches(line));
    if (found === -1) missing.push(shown);
    else from = found + 1;
  }
  return missing;
}

/** Separates the outputs of the commands in a run of a script made by `scriptOf`. */
const MARK = '\u001eCOMMAND';

/**
 * One bash script running the commands in order, each output marked with its command's index, and
 * stopping at the first that fails. `replace` gives a command's text as the run sends it.
 */
export function scriptOf(commands: DocCommand[], replace: (command: DocCommand) => string): string {
  return [
    'set -eo pipefail',
    ...commands.flatMap((command, index) => [
      `printf '\\n${MARK} %d\\n' ${index}`,
      replace(command),
    ]),
    `printf '\\n${MARK} end\\n'`,
  ].join('\n');
}

/** The output of each command of a run of `scriptOf`'s script, by index; `ended` if it ran to the end. */
export function outputsOf(output: string): { outputs: string[]; ended: boolean } {
  const outputs: string[] = [];
  let ended = false;
  for (const part of output.split(`\n${MARK} `).slice(1)) {
    const newline = part.indexOf('\n');
    const label = part.slice(0, newline === -1 ? undefined : newline);
    if (label === 'end') ended = true;
    else outputs[Number(label)] = newline === -1 ? '' : part.slice(newline + 1);
  }
  return { outputs, ended };
}
