// The isolation controls a run must have applied before its program may count as isolated.

/** Every control the launcher must report before a program may count as isolated. */
export const REQUIRED_CONTROLS = [
  "pid_namespace", "mount_namespace", "network_namespace", "ipc_namespace", "uts_namespace", "cgroup",
  "root_filesystem", "proc", "dev", "work_dir", "tmp", "rlimits", "uid_gid", "capabilities",
  "no_new_privileges", "seccomp", "environment", "output_drain", "session", "cgroup_namespace", "time_namespace",
  "proc_masks",
];

/** The controls a run cgroup carries: what a run without one lacks besides the cgroup itself. */
export const CGROUP_CONTROLS = ["memory_limit", "process_limit", "cpu_accounting", "cpu_isolation"];
