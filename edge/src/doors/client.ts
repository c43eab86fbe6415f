// Who is knocking, for the operator doors' throttle: the client address Cloudflare (or, locally,
// workerd under Miniflare) puts in CF-Connecting-IP. IPv6 clients are counted by their /64, which
// one host usually holds whole.
import ipaddr from "ipaddr.js";

export function clientKey(request: Request): string {
  const raw = request.headers.get("cf-connecting-ip")?.trim() ?? "";
  if (!ipaddr.isValid(raw)) return "unknown";
  const addr = ipaddr.process(raw);
  if (addr.kind() === "ipv4") return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}
