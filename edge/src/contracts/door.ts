// DoorDO's RPC surface: the operator doors' guard (one object, "operator"). It counts failed
// operator-token attempts per client and overall, shared by every isolate.

export interface DoorLimits {
  /** Failed attempts one client may make in a window before it is refused (429). */
  perClient: number;
  /** Failed attempts all clients together may make in a window before unknown clients are refused. */
  global: number;
  windowMs: number;
  /** How long a client that presented the right token stays known (exempt from the global limit). */
  trustMs: number;
}

/** pass: the right token; fail: a wrong one (401); throttled: refused before the token counted (429). */
export type DoorVerdict =
  | { verdict: "pass" | "fail" }
  | { verdict: "throttled"; scope: "client" | "global"; retry_after_secs: number };

export interface DoorRpc {
  attempt(client: string, ok: boolean, limits: DoorLimits): DoorVerdict;
}
