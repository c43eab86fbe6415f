// Files kept on the host for as long as their owner needs them, bound read-only into runs: a
// compiled program too large for the compile cache lives here for its request only. They sit in
// the instance's private run directory (0700), which the next start removes if this process dies.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { unlinkIfPresent } from "./housekeeping.ts";
import { writeNewFileNoFollowAsync } from "./nofollow.ts";

/** A file kept on the host for as long as its owner needs it, bound read-only into runs. */
export interface StagedFile {
  path: string;
  /** Removes the file (idempotent). */
  release(): void;
}

export class StagedFiles {
  #dir = "";
  #counter = 0;
  readonly #paths = new Set<string>();

  /** Makes the directory the files go in (outside every slot's staging and every run's /box). */
  open(dir: string): void {
    this.#dir = dir;
    mkdirSync(dir, { mode: 0o700 });
  }

  /** Keeps `content` in a new host file until `release()`; throws if the host cannot write it. */
  async stage(content: Uint8Array, executable: boolean): Promise<StagedFile> {
    const path = join(this.#dir, `staged-${this.#counter++}`);
    try {
      await writeNewFileNoFollowAsync(path, content, executable ? 0o755 : 0o644);
    } catch (error) {
      // a partial write (the host's disk full) is removed; a name that was there is not ours
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") rmSync(path, { force: true });
      throw error;
    }
    this.#paths.add(path);
    return {
      path,
      release: () => {
        if (this.#paths.delete(path)) unlinkIfPresent(path);
      },
    };
  }

  /** Removes every file still kept. */
  removeAll(): void {
    for (const path of this.#paths) unlinkIfPresent(path);
    this.#paths.clear();
  }
}
