// --watch: run, then run again whenever the source file or a file of the tests directory changes
// (changes within a short moment count as one), one run at a time, until Ctrl-C.
import { watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";

const DEBOUNCE_MS = 200;

/** Never resolves: the process ends on SIGINT or SIGTERM, with `interruptedStatus`. */
export async function watchAndRun(
  file: string, testsDir: string | undefined, run: () => Promise<void>, log: (line: string) => void, interruptedStatus: number,
): Promise<never> {
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const cycle = async () => {
    if (running) return void (again = true);
    running = true;
    do {
      again = false;
      await run();
    } while (again);
    running = false;
    log(`watching ${file}${testsDir ? ` and ${testsDir}` : ""} (Ctrl-C to stop)`);
  };
  const changed = (what: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      log(`— ${what} changed: running again —`);
      void cycle();
    }, DEBOUNCE_MS);
  };
  // The directory, not the file: editors often save by replacing the file, which ends a file watch.
  const watchers: FSWatcher[] = [
    watch(dirname(file), (_type, name) => {
      if (name === basename(file)) changed(file);
    }),
  ];
  if (testsDir) watchers.push(watch(testsDir, (_type, name) => changed(name ? `${testsDir}/${name}` : testsDir)));
  const stop = () => {
    for (const w of watchers) w.close();
    clearTimeout(timer);
    process.exit(interruptedStatus);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await cycle();
  return new Promise<never>(() => {});
}
