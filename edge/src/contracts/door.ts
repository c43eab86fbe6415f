// DoorDO's RPC surface: the operator doors' guard (one object, "operator"). It counts wrong
// operator tokens per client and overall, shared by every isolate. The right token never reaches
// it: the caller compares the token first and passes the right one at once.

export interface DoorLimits {
  /** Wrong tokens one client may present in a window before its wrong tokens get 429 instead of 401. */
  perClient: number;
  /** Wrong tokens all clients together may present in a window before every wrong token gets 429. */
  global: number;
  windowMs: number;
}

/** Wrong operator tokens, by door and outcome (refused: 401; throttled: 429). */
export const DOOR_FAILURES_METRIC = "codecell_edge_operator_token_failures_total";

/** Which door a wrong token was presented at (a label of the failures' metric). */
export type Door = "admin" | "dashboard";

/** fail: a wrong token, counted (401); throttled: a wrong token past a limit, not counted (429). */
export type DoorVerdict =
  | { verdict: "pass" | "fail" }
  | { verdict: "throttled"; scope: "client" | "global"; retry_after_secs: number };

export interface DoorRpc {
  /** A wrong token from `client`: counted when under the limits, else throttled. */
  failed(client: string, door: Door, limits: DoorLimits): Exclude<DoorVerdict, { verdict: "pass" }>;
}
