// Webhook target validation (SSRF rules, docs/api.md and the webhook issue). Pure; runs in the Worker
// and in Node (unit tests). Checked when an endpoint is created or changed AND before every attempt.
//
// 1. Parse with the WHATWG URL parser. It normalises every numeric IPv4 spelling (2130706433,
//    0x7f.1, 0177.0.0.1, 127.1, percent-encoded or full-width digits) to dotted decimal and IPv6 to
//    its canonical form, so the checks below see the host the fetch would actually use — never the
//    raw string.
// 2. https only; no credentials in the URL.
// 3. IP literals: IPv4 must be ipaddr.js range "unicast" (refuses private, loopback, link-local,
//    CGNAT, unspecified, broadcast, multicast, reserved, documentation, benchmarking, AS112, AMT).
//    IPv6 must be global unicast (2000::/3, range "unicast"); IPv4-mapped, IPv4-compatible,
//    SIIT (::ffff:0:0/96), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo
//    (2001::/32) addresses are unwrapped and their embedded IPv4 address(es) must be public.
// 4. DNS names: `localhost` and *.localhost, single-label names, special-use TLDs (.local,
//    .internal, .test, .invalid, .home.arpa, .arpa, .onion, …) and public wildcard-DNS services that
//    map names to embedded IPs (nip.io, sslip.io, localtest.me, …) are refused. Names are NOT
//    resolved here (see docs/webhooks.md, "DNS"): a Worker cannot do raw DNS, and a resolve-then-
//    fetch check is defeated by DNS rebinding anyway. Cloudflare's fetch refuses private targets
//    in production; the residual risk is a self-hosted workerd.
// 5. The development allow-list (`WEBHOOK_DEV_ALLOW`, exact `host:port` entries) bypasses 2–4 and
//    may use http:// (workerd's fetch refuses a local receiver's self-signed certificate). It is
//    honoured only when ENVIRONMENT=development; set anywhere else it is a configuration error
//    that refuses every creation and every delivery (never silently ignored, never honoured).
import ipaddr from "ipaddr.js";

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** How the edge treats webhook targets, derived from its environment. */
export interface WebhookPolicy {
  /** host:port entries admitted in development. */
  devAllow: string[];
  /** Non-null when the configuration itself is unsafe: every creation and delivery fails with it. */
  configError: string | null;
}

export function webhookPolicy(env: { ENVIRONMENT?: string; WEBHOOK_DEV_ALLOW?: string }): WebhookPolicy {
  const entries = (env.WEBHOOK_DEV_ALLOW ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (env.ENVIRONMENT === "development") return { devAllow: entries, configError: null };
  if (entries.length > 0) {
    return {
      devAllow: [],
      configError: "webhook configuration error: WEBHOOK_DEV_ALLOW is set but ENVIRONMENT is not 'development'; " +
        "remove it (it is a development-only allow-list)",
    };
  }
  return { devAllow: [], configError: null };
}

const SPECIAL_TLDS = new Set([
  "localhost", "local", "internal", "intranet", "lan", "home", "corp", "private", "test", "invalid", "example", "onion", "arpa", "localdomain",
]);
/** Public wildcard-DNS services that resolve names to the IP embedded in them (127.0.0.1.nip.io). */
const REBIND_DOMAINS = [
  "nip.io", "sslip.io", "xip.io", "nip.direct", "localtest.me", "lvh.me", "vcap.me", "lacolhost.com", "localhost.run", "traefik.me", "local.gd",
  "fbi.com", "1u.ms", "rbndr.us", "backname.io",
];

function v4Reason(addr: ipaddr.IPv4): string | null {
  const range = addr.range();
  if (range === "unicast") return null;
  const names: Record<string, string> = {
    loopback: "loopback", private: "private", linkLocal: "link-local", carrierGradeNat: "carrier-grade NAT (shared)",
    unspecified: "unspecified", broadcast: "broadcast", multicast: "multicast",
  };
  return `${names[range] ?? "reserved or special-purpose"} address ${addr.toString()} is not allowed`;
}

/** The IPv4 addresses an IPv6 address embeds (mapped, NAT64, 6to4, Teredo), or null when it embeds none. */
function embeddedV4(addr: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = addr.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  const range = addr.range();
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (SIIT), ::a.b.c.d (deprecated IPv4-compatible)
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && (p[4] === 0 || p[4] === 0xffff) && (p[5] === 0xffff || p[5] === 0)) {
    return [v4(p[6]!, p[7]!)];
  }
  if (range === "rfc6052") {
    // 64:ff9b::/96 embeds the address in the last 32 bits; 64:ff9b:1::/48 (local use) is refused whole.
    return p[2] === 0 ? [v4(p[6]!, p[7]!)] : [new ipaddr.IPv4([0, 0, 0, 0])];
  }
  if (range === "6to4") return [v4(p[1]!, p[2]!)];
  // Teredo: server in bits 32–63, client = bitwise NOT of the last 32 bits.
  if (range === "teredo") return [v4(p[2]!, p[3]!), v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
  return null;
}

function v6Reason(addr: ipaddr.IPv6): string | null {
  const text = addr.toString();
  const embedded = embeddedV4(addr);
  if (embedded) {
    for (const e of embedded) {
      const r = v4Reason(e);
      if (r) return `IPv6 address ${text} embeds a non-public IPv4 address (${r})`;
    }
    return null;
  }
  const range = addr.range();
  const globalUnicast = (addr.parts[0]! & 0xe000) === 0x2000;
  if (range === "unicast" && globalUnicast) return null;
  const names: Record<string, string> = {
    loopback: "loopback", unspecified: "unspecified", linkLocal: "link-local", uniqueLocal: "private (unique local)",
    multicast: "multicast", deprecatedSiteLocal: "site-local",
  };
  return `${names[range] ?? (range === "unicast" ? "non-global" : "reserved or special-purpose")} address ${text} is not allowed`;
}

/** Why a parsed hostname is not an allowed public target, or null. */
export function hostReason(hostname: string): string | null {
  let host = hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) {
    const inner = host.slice(1, -1);
    if (!ipaddr.IPv6.isValid(inner)) return "invalid IPv6 address";
    const addr = ipaddr.IPv6.parse(inner);
    if (addr.zoneId) return "IPv6 zone identifiers are not allowed";
    return v6Reason(addr);
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return v4Reason(ipaddr.IPv4.parse(host));
  host = host.replace(/\.$/, "");
  if (host === "" || host.includes("..")) return "invalid host name";
  // WHATWG would have turned any numeric form into dotted decimal; a name ending in a number that
  // is still here is not a valid public name.
  if (/(^|\.)(0x[0-9a-f]*|\d+)$/.test(host)) return "invalid host name";
  const labels = host.split(".");
  const tld = labels[labels.length - 1]!;
  if (host === "localhost" || host.endsWith(".localhost")) return "localhost is not allowed";
  if (labels.length < 2) return "single-label host names are not allowed";
  if (SPECIAL_TLDS.has(tld) || host.endsWith(".home.arpa")) return `special-use domain .${tld} is not allowed`;
  for (const d of REBIND_DOMAINS) if (host === d || host.endsWith(`.${d}`)) return `${d} maps names to arbitrary addresses and is not allowed`;
  return null;
}

/** Validates a webhook URL against the policy. The returned URL is the normalised one to store and call. */
export function checkWebhookUrl(raw: string, policy: WebhookPolicy | readonly string[] = []): UrlCheck {
  const pol: WebhookPolicy = Array.isArray(policy) ? { devAllow: [...policy], configError: null } : (policy as WebhookPolicy);
  if (pol.configError) return { ok: false, reason: pol.configError };
  if (typeof raw !== "string" || raw.length > 2048) return { ok: false, reason: "not a valid URL" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid URL" };
  }
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL are not allowed" };
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "the URL must use https" };
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const bare = url.hostname.replace(/^\[|\]$/g, "");
  if (pol.devAllow.includes(`${bare}:${port}`.toLowerCase()) || pol.devAllow.includes(`${url.hostname}:${port}`.toLowerCase())) {
    return { ok: true, url };
  }
  if (url.protocol !== "https:") return { ok: false, reason: "the URL must use https" };
  const reason = hostReason(url.hostname);
  return reason ? { ok: false, reason } : { ok: true, url };
}
