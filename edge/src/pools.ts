// Which pool a submission is scheduled in. Every node enrolls into a pool (default "default").
import { DEFAULT_POOL } from "./contracts/scheduler.ts";

export function choosePool(_request: Request): string {
  return DEFAULT_POOL;
}
