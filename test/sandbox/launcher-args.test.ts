// The launcher's command line, refused: every option's bad value is reported as the first
// failure (`fail CONTROL ERRNO MESSAGE`, PROTOCOL.md) and nothing is cloned. The real binary is
// run with fds 3 (status) and 4 (control) as pipes; no run starts, so neither root nor a
// cgroup is needed. The expected lines are the protocol's: a change of any is a change of it.
// (A value split at ':' before it is refused shows only its first part: that is how it is.)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { LAUNCHER_PATH } from "../../fleet/src/sandbox/launcher.ts";

const REQUIRED = ["--uid", "1000", "--gid", "1000", "--memory-limit", "1048576"];

/** The status lines of one launcher started with `args`, and its exit status. */
function launch(args: string[]): { lines: string[]; status: number | null } {
  const r = spawnSync(LAUNCHER_PATH, args, { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"], encoding: "utf8", timeout: 30_000 });
  const status = (r.output[3] ?? "").split("\n").filter(Boolean);
  return { lines: status, status: r.status };
}

const EINVAL = 22;
const cases: [string, string[], string][] = [
  ["a value missing", ["--uid"], `fail exec ${EINVAL} option --uid needs a value`],
  ["an unknown option", ["--nope", "x", ...REQUIRED, "--", "/bin/true"], `fail exec ${EINVAL} unknown option --nope`],
  ["uid 0", ["--uid", "0"], `fail uid_gid ${EINVAL} bad --uid 0`],
  ["a signed gid", ["--gid", "-5"], `fail uid_gid ${EINVAL} bad --gid -5`],
  ["a long hostname", ["--hostname", "h".repeat(65)], `fail uts_namespace ${EINVAL} bad --hostname`],
  ["an empty hostname", ["--hostname", ""], `fail uts_namespace ${EINVAL} bad --hostname`],
  ["a CPU list with a gap", ["--cpus", "0,,1"], `fail cgroup ${EINVAL} bad --cpus`],
  ["a CPU range backwards", ["--cpus", "3-1"], `fail cgroup ${EINVAL} bad --cpus`],
  ["a CPU past the set", ["--cpus", "4096"], `fail cgroup ${EINVAL} bad --cpus`],
  ["memory limit 0", ["--memory-limit", "0"], `fail proc_masks ${EINVAL} bad --memory-limit 0`],
  ["an output cap in hex", ["--output-cap", "0x10"], `fail output_drain ${EINVAL} bad --output-cap 0x10`],
  ["merge-stderr 2", ["--merge-stderr", "2"], `fail exec ${EINVAL} --merge-stderr takes 0 or 1`],
  ["a bind without a sandbox path", ["--bind-ro", "/usr"], `fail root_filesystem ${EINVAL} bad --bind-ro /usr`],
  ["a relative hidden bind", ["--bind-hidden", "usr:/usr"], `fail root_filesystem ${EINVAL} bad --bind-hidden usr`],
  ["a file-ro at ..", ["--file-ro", "/etc/passwd:/etc/.."], `fail root_filesystem ${EINVAL} bad --file-ro sandbox path /etc/..`],
  ["a symlink without a target", ["--symlink", ":/bin"], `fail root_filesystem ${EINVAL} bad --symlink `],
  ["a symlink at /", ["--symlink", "usr/bin:/"], `fail root_filesystem ${EINVAL} bad --symlink link path /`],
  ["box size 0", ["--box-size", "0"], `fail work_dir ${EINVAL} bad --box-size 0`],
  ["tmp size empty", ["--tmp-size", ""], `fail tmp ${EINVAL} bad --tmp-size `],
  ["a copy-in mode of 1000", ["--copy-in", "/etc/passwd:a:1000"], `fail work_dir ${EINVAL} bad --copy-in`],
  ["a copy-in nine deep", ["--copy-in", `/etc/passwd:${"d/".repeat(8)}f:644`], `fail work_dir ${EINVAL} bad --copy-in`],
  ["a bind-in with a slash", ["--bind-in", "/usr:a/b"], `fail work_dir ${EINVAL} bad --bind-in`],
  ["a copy-out without a host path", ["--copy-out", "main"], `fail work_dir ${EINVAL} bad --copy-out`],
  ["a copy-out without a size", ["--copy-out", "main:/tmp/x:"], `fail work_dir ${EINVAL} bad --copy-out`],
  ["an rlimit without =", ["--rlimit", "nofile"], `fail rlimits ${EINVAL} bad --rlimit nofile`],
  ["an unknown rlimit", ["--rlimit", "files=3"], `fail rlimits ${EINVAL} unknown rlimit files`],
  ["an rlimit of -1", ["--rlimit", "nofile=-1"], `fail rlimits ${EINVAL} bad rlimit value for nofile`],
  ["an env entry without =", ["--env", "PATH"], `fail environment ${EINVAL} bad --env entry`],
  ["an env entry without a name", ["--env", "=x"], `fail environment ${EINVAL} bad --env entry`],
  ["a relative cwd", ["--cwd", "box"], `fail work_dir ${EINVAL} --cwd must be absolute`],
  ["no uid", ["--gid", "1000", "--memory-limit", "1", "--", "/bin/true"], `fail uid_gid ${EINVAL} --uid and --gid are required`],
  ["no memory limit", ["--uid", "1000", "--gid", "1000", "--", "/bin/true"], `fail proc_masks ${EINVAL} --memory-limit is required (the MemTotal of /proc/meminfo)`],
  ["no program", [...REQUIRED, "--"], `fail exec ${EINVAL} no program after --`],
  ["an empty program", [...REQUIRED, "--", ""], `fail exec ${EINVAL} no program after --`],
  ["the first bad option of two", ["--uid", "0", "--gid", "0"], `fail uid_gid ${EINVAL} bad --uid 0`],
];

describe("launcher command line", () => {
  for (const [what, args, line] of cases)
    it(`refuses ${what}: ${line}`, () => {
      assert.deepEqual(launch(args), { lines: [`${line}: Invalid argument`, "done"], status: 1 });
    });

  it("every valid option is taken: the first failure is past parsing (a cgroup file that does not exist)", () => {
    const valid = [
      ...REQUIRED,
      ...["--hostname", "h", "--netns", "/proc/self/ns/net", "--output-cap", "0", "--merge-stderr", "1", "--box-size", "4096"],
      ...["--cpus", "0-0,0", "--tmp-size", "4096", "--bind-ro", "/usr:/usr", "--bind-hidden", "/usr:/opt/u", "--file-ro", "/etc/passwd:/etc/passwd"],
      ...["--symlink", "usr/bin:/bin", "--copy-in", "/etc/passwd:lib/a:644", "--bind-in", "/usr:u", "--rlimit", "nofile=64"],
      ...["--rlimit", "core=unlimited", "--env", "A=b=c", "--cwd", "/box", "--cgroup-procs", "/c", "--init-return-procs", "/i"],
      ...["--drainer-cgroup-procs", "/d", "--drainer-return-procs", "/r", "--copy-out", "main:/dev/null:10", "--", "/bin/true"],
    ];
    const { lines, status } = launch(valid);
    assert.equal(status, 1);
    assert.match(lines[0] ?? "", /^fail cgroup 2 open \/c: No such file or directory$/);
  });
});
