// The host's file layer for anything a sandboxed program could have touched or named:
// never follow a symlink, never accept anything but a regular file with one link.
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
// (libuv opens every file with O_CLOEXEC already.)

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;

/** Creates a new file (never reuses or follows an existing name) and writes it whole. */
export function writeNewFileNoFollow(path: string, content: Uint8Array | string, mode = 0o600): void {
  const fd = openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    const bytes = typeof content === "string" ? Buffer.from(content) : content;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a regular file with one link, at most `maxBytes`, off the event loop (libuv's threadpool
 * does the reads): a compiled program copied out of a run may be 128 MiB.
 */
export async function readFileNoFollowAsync(path: string, maxBytes: number): Promise<Buffer> {
  const file = await open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const stat = await file.stat();
    if (!stat.isFile()) throw new Error(`${path}: not a regular file`);
    if (stat.nlink !== 1) throw new Error(`${path}: has ${stat.nlink} links`);
    if (stat.size > maxBytes) throw new Error(`${path}: ${stat.size} bytes is over ${maxBytes}`);
    const buffer = Buffer.alloc(stat.size);
    let offset = 0;
    while (offset < buffer.length) {
      const { bytesRead } = await file.read(buffer, offset, buffer.length - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return buffer.subarray(0, offset);
  } finally {
    await file.close();
  }
}

/** writeNewFileNoFollow, off the event loop: for large files (a compiled program into the cache or staging). */
export async function writeNewFileNoFollowAsync(path: string, content: Uint8Array, mode = 0o600): Promise<void> {
  const file = await open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    let offset = 0;
    while (offset < content.length) offset += (await file.write(content, offset, content.length - offset)).bytesWritten;
  } finally {
    await file.close();
  }
}
