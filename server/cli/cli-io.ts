import fs from 'node:fs';
import os from 'node:os';
import readline from 'node:readline/promises';
import { Writable } from 'node:stream';

/*
 * What a command talks to: its output, and the person at the terminal when there is one. Commands never read
 * process.stdout or process.stdin themselves, so the runner decides what is a terminal.
 */

export interface CliIo {
  /** A line (or lines) of the command's result, on stdout. */
  out(text: string): void;
  /** A warning or a refusal, on stderr. */
  err(text: string): void;
  /** True when a person can be asked (stdin and stdout are a terminal). */
  interactive: boolean;
  /** Asks one question at the terminal; `hidden` does not echo what is typed (a password). */
  ask(question: string, options?: { hidden?: boolean }): Promise<string>;
  /** Everything on stdin, for --password-stdin. */
  readStdin(): Promise<string>;
}

/** A command refused: its message says what to fix. `usage` errors (wrong arguments) exit 2, others 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

/** The process's own terminal. */
export function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(`${text}\n`),
    err: (text) => void process.stderr.write(`${text}\n`),
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
    ask: (question, options = {}) => askAtTerminal(question, options.hidden ?? false),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** One line from the terminal; a hidden one echoes nothing (the prompt is written before the echo is muted). */
async function askAtTerminal(question: string, hidden: boolean): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const terminal = readline.createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = terminal.question(question);
    muted = hidden;
    return await answer;
  } finally {
    terminal.close();
    if (hidden) process.stdout.write('\n');
  }
}

/** A secret read from a file (--password-file): its text without the line break(s) at the end. */
export function readSecretFile(option: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').replace(/[\r\n]+$/, '');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `${option}: cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : String(code)}.`,
      true,
    );
  }
}

/** Who acted, for the audit trail: the command line, the system user and the host. */
export function commandLineActor(): string {
  let user: string;
  try {
    user = os.userInfo().username;
  } catch {
    // A container's user without a passwd entry.
    user = `uid ${process.getuid?.() ?? '?'}`;
  }
  return `dbui command line, ${user}@${os.hostname()}`;
}
