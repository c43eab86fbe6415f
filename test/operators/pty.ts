// A command on a real pseudo-terminal, for the tests of what a user types: Python's pty module
// forks the command with the terminal's slave side as its controlling terminal (so Ctrl-C, written
// as \x03, is the kernel's SIGINT to it), and relays between our pipes and the master side.
import { spawn } from "node:child_process";

const RELAY = `
import os, pty, select, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(sys.argv[1], sys.argv[1:], os.environ)
inputs = [fd, 0]
while True:
    ready, _, _ = select.select(inputs, [], [])
    if fd in ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            break
        os.write(1, data)
    if 0 in ready:
        data = os.read(0, 65536)
        if data:
            os.write(fd, data)
        else:
            inputs.remove(0)
_, status = os.waitpid(pid, 0)
print(f"\\n[exit {os.waitstatus_to_exitcode(status)}]", file=sys.stderr)
`;

export interface PtyRun {
  /** Writes to the terminal, as typed keys. */
  type(keys: string): void;
  /** Everything the terminal has shown so far (the command's stdout and stderr, and the terminal's echo). */
  screen(): string;
  /** Resolves once the screen matches `pattern`; rejects if the command ends first. */
  waitFor(pattern: RegExp): Promise<void>;
  /** The command's exit status. */
  exit: Promise<number>;
}

export function runInPty(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): PtyRun {
  const relay = spawn("python3", ["-c", RELAY, command, ...args], { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
  let screen = "";
  let relayErr = "";
  const watchers = new Set<() => void>();
  relay.stdout.on("data", (chunk: Buffer) => {
    screen += chunk.toString("utf8");
    for (const check of watchers) check();
  });
  relay.stderr.on("data", (chunk: Buffer) => (relayErr += chunk.toString("utf8")));
  const exit = new Promise<number>((resolve, reject) => {
    relay.on("error", reject);
    relay.on("close", () => {
      const status = /\[exit (-?\d+)\]/.exec(relayErr);
      if (status) resolve(Number(status[1]));
      else reject(new Error(`the pty relay failed: ${relayErr}`));
      for (const check of watchers) check();
    });
  });
  return {
    type: (keys) => void relay.stdin.write(keys),
    screen: () => screen,
    exit,
    waitFor: (pattern) => new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(screen)) {
          watchers.delete(check);
          resolve();
        } else if (relay.exitCode !== null) {
          watchers.delete(check);
          reject(new Error(`the command ended before ${pattern}; the screen:\n${screen}\n${relayErr}`));
        }
      };
      watchers.add(check);
      check();
    }),
  };
}
