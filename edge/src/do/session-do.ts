// SessionDO: one live session (docs/live-sessions.md), named by the session's id. It holds its
// clients' WebSockets through the Hibernation API, so while the program is idle the object can
// leave memory and the sockets stay open. Its submission's object (SubmissionDO) reads the node's
// stream and pushes the run's events here; stdin goes straight to the node (session/input-relay.ts).
// What each socket is (its protocol, its key, its stage) rides on the socket itself.
import { DurableObject } from "cloudflare:workers";
import type { ResultRecord } from "../../../proto/record.ts";
import { OPEN_HEADER, type OpenSession, type SessionEvent, type SessionRpc } from "../contracts/session.ts";
import type { Env } from "../env.ts";
import { keyObject, submissionObject } from "../stubs.ts";
import { readRecord } from "../submission/reads.ts";
import { json } from "../lib/http.ts";
import { type Dialect, type Refusal, type Reply, isRefusal } from "../session/dialect.ts";
import { native } from "../session/native.ts";
import { piston } from "../session/piston.ts";
import { startSession } from "../session/start.ts";
import { IdleClock } from "../session/idle-clock.ts";
import { InputRelay } from "../session/input-relay.ts";
import { MessageRate, PAST_RATE } from "../session/message-budget.ts";
import { STDIN_WINDOW_BYTES } from "../session/stdin-pump.ts";
import { sendReply, type Session, type SocketState } from "../session/sockets.ts";

const DIALECTS: Record<SocketState["dialect"], Dialect> = { native, piston };
/** WebSockets one session holds at once (its first, and reconnects that overlap it). */
const MAX_SOCKETS = 4;
/** Beyond its maximum duration, how long a session waits for its record before it gives up. */
const OVERDUE_GRACE_MS = 60_000;

export class SessionDO extends DurableObject<Env> implements SessionRpc {
  #session: Session | null | undefined;
  readonly #input = new InputRelay({
    env: this.env,
    stored: () => this.#stored(),
    taken: (taken) => this.#each((_ws, _s, d) => d.taken(taken)),
    refuse: (ws, r) => this.#refuse(ws, r),
    refuseAll: (r) => this.#refuseAll(r),
  });
  readonly #clock = new IdleClock(this.ctx.storage.kv);
  readonly #rate = new MessageRate();
  /** While the first message is being admitted: the messages after it wait for it. */
  #starting: Promise<void> | null = null;

  override async fetch(request: Request): Promise<Response> {
    const open = JSON.parse(request.headers.get(OPEN_HEADER) ?? "null") as OpenSession;
    // Only keys of the project that started it attach to a session; to any other it does not exist.
    if (open.resume && !ownedBy(this.#stored(), open.caller)) return json(404, { error: "not found", message: "no such session" });
    if (this.ctx.getWebSockets().length >= MAX_SOCKETS) {
      const message = `a session takes at most ${MAX_SOCKETS} WebSockets at once; close one first`;
      return json(429, { error: "too many connections", message }, { "retry-after": "1" });
    }
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server);
    const now = Date.now();
    const state: SocketState = {
      dialect: open.dialect, session: open.session, caller: open.caller, pool: open.pool,
      started: open.resume, stage: null, opened_ms: now, attach: open.resume, socket: open.socket,
    };
    server.serializeAttachment(state);
    // What a new socket waits for (a reconnect's answer, the deadline of its first message) is the
    // alarm's to do: a close sent from an event of the socket's object completes at once, one sent
    // later from this request's timers only after the runtime's close timeout.
    await this.#alarmBy(open.resume ? now : now + DIALECTS[open.dialect].startTimeoutMs);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    try {
      await this.#message(ws, message);
    } catch (e) {
      this.#failed(ws, e);
    }
  }

  #failed(ws: WebSocket, e: unknown): void {
    console.error("live session failed", e instanceof Error ? (e.stack ?? e.message) : String(e));
    this.#refuse(ws, { refused: "internal", message: "the session failed inside the edge; it has been logged" });
  }

  async #message(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // Messages still arriving on a socket this side has closed are nothing to do.
    if (ws.readyState !== WebSocket.OPEN) return;
    const state = ws.deserializeAttachment() as SocketState;
    if (state.started && !this.#rate.take()) return this.#refuseAll(PAST_RATE);
    const dialect = DIALECTS[state.dialect];
    const action = dialect.parse(message, state.started);
    if (isRefusal(action)) return this.#refuse(ws, action);
    // A message the protocol ignores is no activity: it does not hold an abandoned session open.
    if (action.kind !== "none") this.#clock.touch();
    if (action.kind !== "start" && this.#starting) await this.#starting;
    switch (action.kind) {
      case "start": return this.#start(ws, state, action.body, action.piston === true);
      case "stdin": return this.#input.stdin(ws, action.data);
      case "end": return this.#input.control((pump) => pump.end());
      case "signal": return this.#input.control((pump) => pump.signal(action.signal));
      case "none": return;
    }
  }

  override webSocketClose(ws: WebSocket, code: number, reason: string): void {
    this.#socketGone(ws);
    // The program goes on without a client until its idle timeout: a reconnect may pick it up.
    try {
      ws.close(code === 1005 ? 1000 : code, reason);
    } catch {
      // already closed
    }
  }

  override webSocketError(ws: WebSocket): void {
    this.#socketGone(ws);
  }

  /** The key's count of open sockets takes this one back. */
  #socketGone(ws: WebSocket): void {
    const state = ws.deserializeAttachment() as SocketState | null;
    if (state?.socket) this.ctx.waitUntil(keyObject(this.env, state.caller.hash).liveSocket(state.socket, null).catch(() => {}));
  }

  async push(events: SessionEvent[]): Promise<void> {
    this.#clock.touch();
    for (const e of events) {
      if (e.kind === "node") this.#input.node(e.node);
      else if (e.kind === "stage") this.#each((ws, state, d) => {
        const reply = d.stage(e.stage, state.stage);
        ws.serializeAttachment({ ...state, stage: e.stage });
        return reply;
      });
      else if (e.kind === "output") this.#each((_ws, _s, d) => d.output(e.stream, e.data));
      else await this.#finish(e.record);
    }
  }

  /** Reconnects to answer, first messages overdue, then the session's own deadlines; the next wake-up. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    let next = Infinity;
    for (const ws of this.ctx.getWebSockets()) {
      const state = ws.deserializeAttachment() as SocketState | null;
      if (state?.attach) {
        ws.serializeAttachment({ ...state, attach: false });
        await this.#reattach(ws, state).catch((e: unknown) => this.#failed(ws, e));
      } else if (state && !state.started) {
        const due = state.opened_ms + DIALECTS[state.dialect].startTimeoutMs;
        if (now >= due) this.#refuse(ws, { refused: "start_timeout", message: "no start message in time" });
        else next = Math.min(next, due);
      }
    }
    next = Math.min(next, await this.#sessionDeadlines(now));
    if (Number.isFinite(next)) await this.ctx.storage.setAlarm(next);
  }

  /** The session past its maximum or idle is ended; else when to look again (Infinity: nothing to watch). */
  async #sessionDeadlines(now: number): Promise<number> {
    const s = this.#stored();
    if (!s || s.done) return Infinity;
    const overdue = s.created_ms + s.caps.max_duration_ms + OVERDUE_GRACE_MS;
    if (now > overdue) {
      this.#refuseAll({ refused: "too_long", message: `the session outlived its maximum of ${s.caps.max_duration_ms / 1000} s without a result` });
      await submissionObject(this.env, s.id).cancel(s.id, "the live session outlived its maximum duration").catch(() => false);
      return Infinity;
    }
    const idleUntil = this.#clock.last(s.created_ms) + s.caps.idle_timeout_ms;
    if (now < idleUntil) return Math.min(idleUntil, overdue);
    this.#refuseAll({ refused: "idle", message: `nothing came from the client or the program for ${s.caps.idle_timeout_ms / 1000} s; the program was killed` });
    return Infinity;
  }

  async #alarmBy(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  // ---- the client's messages ----

  async #start(ws: WebSocket, state: SocketState, body: Record<string, unknown>, isPiston: boolean): Promise<void> {
    const session = state.session;
    ws.serializeAttachment({ ...state, started: true });
    const starting = startSession({ env: this.env, caller: state.caller, session, pool: state.pool }, body, isPiston);
    this.#starting = starting.then(() => {});
    const started = await starting.finally(() => (this.#starting = null));
    if (isRefusal(started)) return this.#refuse(ws, started, false);
    const now = Date.now();
    const { account_id, project_id } = state.caller;
    const s: Session = { id: started.id, session, account_id, project_id, caps: started.caps, created_ms: now, received: 0, done: false };
    this.#session = s;
    this.ctx.storage.kv.put("session", s);
    await this.#alarmBy(now + Math.min(s.caps.idle_timeout_ms, s.caps.max_duration_ms + OVERDUE_GRACE_MS));
    this.#input.pump(true);
    const runtime = started.runtime ? { runtime: started.runtime } : {};
    this.#send(ws, DIALECTS[state.dialect].accepted({ id: s.id, session_id: session, window: STDIN_WINDOW_BYTES, limits: s.caps, ...runtime }));
    if (started.initial.length > 0) this.#input.stdin(ws, started.initial);
  }

  async #reattach(ws: WebSocket, open: SocketState): Promise<void> {
    const s = this.#stored();
    if (!s) return;
    if (s.done) {
      const record = await readRecord(this.env, s.id, s.account_id);
      if (record) this.#send(ws, DIALECTS[open.dialect].result(record, null));
      return;
    }
    ws.serializeAttachment({ ...(ws.deserializeAttachment() as SocketState), received: s.received });
    const pump = this.#input.pump();
    this.#send(ws, DIALECTS[open.dialect].attached({ id: s.id, session_id: s.session, taken: pump?.taken ?? 0 }));
    // Not known after a wake-up: the node says, and a stdin_ack follows.
    if (pump?.taken === null) pump.kick();
  }

  // ---- the run's events ----

  async #finish(record: ResultRecord): Promise<void> {
    const s = this.#stored();
    if (s && !s.done) {
      s.done = true;
      this.ctx.storage.kv.put("session", s);
      await this.ctx.storage.deleteAlarm();
    }
    this.#each((ws, state, d) => d.result(record, state.stage));
  }

  // ---- sockets ----

  #stored(): Session | null {
    if (this.#session === undefined) {
      const s = this.ctx.storage.kv.get<Session>("session");
      const counts = this.ctx.getWebSockets().map((ws) => (ws.deserializeAttachment() as SocketState | null)?.received ?? 0);
      this.#session = s ? { ...s, received: Math.max(s.received, ...counts) } : null;
    }
    return this.#session;
  }

  #each(reply: (ws: WebSocket, state: SocketState, dialect: Dialect) => Reply): void {
    for (const ws of this.ctx.getWebSockets()) {
      const state = ws.deserializeAttachment() as SocketState | null;
      if (state?.started) this.#send(ws, reply(ws, state, DIALECTS[state.dialect]));
    }
  }

  /** Ends one socket with `r`; a started session's program is killed unless `keepRun`. */
  #refuse(ws: WebSocket, r: Refusal, killRun = true): void {
    const state = ws.deserializeAttachment() as SocketState | null;
    this.#send(ws, DIALECTS[state?.dialect ?? "native"].refusal(r));
    if (killRun) this.#input.kill();
  }

  #refuseAll(r: Refusal): void {
    for (const ws of this.ctx.getWebSockets()) this.#refuse(ws, r, false);
    this.#input.kill();
  }

  #send(ws: WebSocket, reply: Reply): void {
    sendReply(ws, reply);
    // A socket this side closes is given back now: its close event may come late, or not at all.
    if (reply.close) this.#socketGone(ws);
  }
}


function ownedBy(s: Session | null, caller: OpenSession["caller"]): boolean {
  return s !== null && s.account_id === caller.account_id && s.project_id === caller.project_id;
}
