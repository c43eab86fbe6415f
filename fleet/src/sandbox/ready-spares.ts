// The launcher zygote's spares, connected ahead (fleet/launcher/spares.c, PROTOCOL.md): each one
// connects its out, err and ctl streams under a token of its own and announces its CPU set on ctl
// ("spare CPUS\n"). A run of those CPUs takes a waiting spare and writes its request on the spare's
// ctl stream: no hop through the zygote, no connects while the run waits.
import type { Socket } from "node:net";

export interface SpareStreams {
  out: Socket;
  err: Socket;
  ctl: Socket;
}

type Kind = keyof SpareStreams;

interface Arriving extends Partial<SpareStreams> {
  cpus?: string;
  drop: () => void;
}

/** The announce line's bound ("spare " and a CPU list the zygote keeps under 64 bytes). */
const ANNOUNCE_MAX = 128;
/** Spares half connected at once: the zygote keeps two per CPU set, at most 256 sets. */
const ARRIVING_MAX = 1024;

export class ReadySpares {
  readonly #arriving = new Map<string, Arriving>();
  readonly #waiting = new Map<string, Arriving[]>();

  /** One of a spare's connections: introduced by a token that is no run's nonce. */
  accept(token: string, kind: string, socket: Socket, rest: Buffer): void {
    if (kind !== "out" && kind !== "err" && kind !== "ctl") return void socket.destroy();
    let entry = this.#arriving.get(token);
    if (!entry) {
      if (this.#arriving.size >= ARRIVING_MAX) return void socket.destroy();
      const created: Arriving = { drop: () => this.#drop(token, created) };
      entry = created;
      this.#arriving.set(token, entry);
    }
    if (entry[kind]) return void socket.destroy();
    entry[kind] = socket;
    socket.once("close", entry.drop);
    if (kind === "ctl") this.#readAnnounce(token, entry, socket, rest);
    else if (rest.length > 0) entry.drop(); // nothing comes on out or err before the run
    else this.#complete(token, entry);
  }

  /** A waiting spare of these CPUs, taken: the caller writes its request and reads its streams. */
  take(cpus: string): SpareStreams | undefined {
    const entry = this.#waiting.get(cpus)?.shift();
    if (!entry) return undefined;
    const { out, err, ctl } = entry as Required<Arriving>;
    for (const socket of [out, err, ctl]) socket.off("close", entry.drop);
    return { out, err, ctl };
  }

  closeAll(): void {
    for (const entry of [...this.#arriving.values(), ...[...this.#waiting.values()].flat()]) entry.drop();
  }

  #readAnnounce(token: string, entry: Arriving, socket: Socket, rest: Buffer): void {
    let text = rest;
    const onData = (chunk: Buffer) => {
      text = Buffer.concat([text, chunk]);
      const end = text.indexOf(10);
      if (end < 0) {
        if (text.length > ANNOUNCE_MAX) entry.drop();
        return;
      }
      socket.off("data", onData);
      socket.pause(); // until a run takes it: its status lines are that run's
      const line = text.subarray(0, end).toString("latin1");
      if (!line.startsWith("spare ") || text.length > end + 1) return entry.drop();
      entry.cpus = line.slice("spare ".length);
      this.#complete(token, entry);
    };
    socket.on("data", onData);
    if (rest.length > 0) onData(Buffer.alloc(0));
  }

  #complete(token: string, entry: Arriving): void {
    if (!entry.out || !entry.err || !entry.ctl || entry.cpus === undefined) return;
    this.#arriving.delete(token);
    const list = this.#waiting.get(entry.cpus) ?? [];
    list.push(entry);
    this.#waiting.set(entry.cpus, list);
  }

  /** A spare gone (one of its streams closed) or refused: all of it goes. */
  #drop(token: string, entry: Arriving): void {
    this.#arriving.delete(token);
    const list = entry.cpus === undefined ? undefined : this.#waiting.get(entry.cpus);
    const index = list?.indexOf(entry) ?? -1;
    if (index >= 0) list!.splice(index, 1);
    for (const kind of ["out", "err", "ctl"] as Kind[]) entry[kind]?.destroy();
  }
}
