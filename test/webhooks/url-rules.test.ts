// The webhook URL rules, name by name and range by range, with the reason a user is given.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classify } from "../../edge/src/webhooks/attempt-policy.ts";
import { SECRET_PREFIX, generateSecret, secretKey, sign, signatureHeader } from "../../edge/src/webhooks/signing.ts";
import { checkWebhookUrl, hostReason, webhookPolicy } from "../../edge/src/webhooks/endpoint-url.ts";

const reason = (url: string, policy: Parameters<typeof checkWebhookUrl>[1] = []) => {
  const check = checkWebhookUrl(url, policy);
  return check.ok ? null : check.reason;
};

describe("webhook URL rules, one by one", () => {
  it("every special-use top-level domain is refused, by name", () => {
    for (const tld of ["localhost", "local", "internal", "intranet", "lan", "home", "corp", "private", "test", "invalid", "example", "onion", "arpa", "localdomain"]) {
      const expected = tld === "localhost" ? "localhost is not allowed" : `special-use domain .${tld} is not allowed`;
      assert.equal(hostReason(`svc.${tld}`), expected, tld);
    }
    assert.equal(hostReason("router.home.arpa"), "special-use domain .arpa is not allowed");
    assert.equal(hostReason("hooks.example.com"), null);
  });

  it("every wildcard-DNS service that maps names to addresses is refused, and only its own names", () => {
    for (const domain of ["nip.io", "sslip.io", "xip.io", "nip.direct", "localtest.me", "lvh.me", "vcap.me", "lacolhost.com", "localhost.run", "traefik.me", "local.gd", "fbi.com", "1u.ms", "rbndr.us", "backname.io"]) {
      const expected = `${domain} maps names to arbitrary addresses and is not allowed`;
      assert.equal(hostReason(domain), expected, domain);
      assert.equal(hostReason(`10.0.0.1.${domain}`), expected, domain);
      assert.equal(hostReason(`not${domain}`), null, `not${domain} is someone else's name`);
    }
  });

  it("IPv4 ranges are named in the reason", () => {
    assert.equal(reason("https://127.0.0.1/"), "loopback address 127.0.0.1 is not allowed");
    assert.equal(reason("https://10.1.2.3/"), "private address 10.1.2.3 is not allowed");
    assert.equal(reason("https://169.254.1.1/"), "link-local address 169.254.1.1 is not allowed");
    assert.equal(reason("https://100.64.0.1/"), "carrier-grade NAT (shared) address 100.64.0.1 is not allowed");
    assert.equal(reason("https://0.0.0.0/"), "unspecified address 0.0.0.0 is not allowed");
    assert.equal(reason("https://255.255.255.255/"), "broadcast address 255.255.255.255 is not allowed");
    assert.equal(reason("https://224.0.0.1/"), "multicast address 224.0.0.1 is not allowed");
    assert.equal(reason("https://192.0.2.1/"), "reserved or special-purpose address 192.0.2.1 is not allowed");
    assert.equal(reason("https://8.8.8.8/"), null);
  });

  it("IPv6 ranges are named, and embedded IPv4 addresses are unwrapped in every form", () => {
    // ::1 and :: fall under the IPv4-compatible form (::a.b.c.d) first, and are refused as such.
    assert.equal(reason("https://[::1]/"), "IPv6 address ::1 embeds a non-public IPv4 address (unspecified address 0.0.0.1 is not allowed)");
    assert.equal(reason("https://[::]/"), "IPv6 address :: embeds a non-public IPv4 address (unspecified address 0.0.0.0 is not allowed)");
    assert.equal(reason("https://[fe80::1]/"), "link-local address fe80::1 is not allowed");
    assert.equal(reason("https://[fd00::1]/"), "private (unique local) address fd00::1 is not allowed");
    assert.equal(reason("https://[ff02::1]/"), "multicast address ff02::1 is not allowed");
    assert.equal(reason("https://[fec0::1]/"), "site-local address fec0::1 is not allowed");
    assert.equal(reason("https://[4000::1]/"), "non-global address 4000::1 is not allowed");
    assert.equal(reason("https://[2001:db8::1]/"), "reserved or special-purpose address 2001:db8::1 is not allowed");
    const embeds = (url: string) => assert.match(reason(url) ?? "", /embeds a non-public IPv4 address \(loopback address 127\.0\.0\.1/, url);
    embeds("https://[::ffff:127.0.0.1]/"); // mapped
    embeds("https://[::ffff:0:7f00:1]/"); // SIIT
    embeds("https://[::127.0.0.1]/"); // IPv4-compatible
    embeds("https://[64:ff9b::7f00:1]/"); // NAT64
    embeds("https://[2002:7f00:1::1]/"); // 6to4
    embeds("https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/"); // Teredo client
    assert.match(reason("https://[2001:0:7f00:1::1]/") ?? "", /embeds a non-public IPv4 address \(loopback/); // Teredo server
    assert.match(reason("https://[64:ff9b:1::808:808]/") ?? "", /embeds a non-public IPv4 address \(unspecified/);
    // Not an embedding form: a zero in one of the distinguishing groups makes these plain global-or-not IPv6.
    assert.equal(reason("https://[::1:ffff:7f00:1]/"), "non-global address ::1:ffff:7f00:1 is not allowed");
    assert.equal(reason("https://[::ffff:1:7f00:1]/"), "non-global address ::ffff:1:7f00:1 is not allowed");
    for (const good of ["https://[2606:4700:4700::1111]/", "https://[::ffff:8.8.8.8]/", "https://[64:ff9b::808:808]/", "https://[2002:808:808::1]/"]) {
      assert.equal(reason(good), null, good);
    }
  });

  it("names that are not names: trailing numbers, empty labels, single labels, zone ids, credentials, other schemes", () => {
    assert.equal(hostReason("example.123"), "invalid host name");
    assert.equal(hostReason("example.0x1f"), "invalid host name");
    assert.equal(hostReason("a..b.com"), "invalid host name");
    assert.equal(hostReason("."), "invalid host name");
    assert.equal(hostReason("intranet"), "single-label host names are not allowed");
    assert.equal(hostReason("example.com."), null);
    assert.equal(hostReason("[fe80::1%25eth0]"), "IPv6 zone identifiers are not allowed");
    assert.equal(hostReason("[zz::1]"), "invalid IPv6 address");
    assert.equal(reason("https://u:p@example.com/"), "credentials in the URL are not allowed");
    assert.equal(reason("https://u@example.com/"), "credentials in the URL are not allowed");
    assert.equal(reason("http://example.com/"), "the URL must use https");
    assert.equal(reason("ftp://example.com/"), "the URL must use https");
    assert.equal(reason("nope"), "not a valid URL");
    assert.equal(reason(`https://example.com/${"a".repeat(2030)}`), "not a valid URL");
    assert.equal(reason(`https://example.com/${"a".repeat(2028)}`), null);
  });

  it("the development allow-list: exact host:port, http allowed, honoured only in development", () => {
    const dev = webhookPolicy({ ENVIRONMENT: "development", WEBHOOK_DEV_ALLOW: " 127.0.0.1:9000 , [::1]:9001,Example.test:443 " });
    assert.deepEqual(dev, { devAllow: ["127.0.0.1:9000", "[::1]:9001", "example.test:443"], configError: null });
    assert.equal(reason("http://127.0.0.1:9000/h", dev), null);
    assert.equal(reason("http://[::1]:9001/h", dev), null);
    assert.equal(reason("https://example.test/h", dev), null);
    assert.equal(reason("http://127.0.0.1:9002/h", dev), "the URL must use https");
    assert.equal(reason("https://127.0.0.1:9002/h", dev), "loopback address 127.0.0.1 is not allowed");
    const deployed = webhookPolicy({ WEBHOOK_DEV_ALLOW: "127.0.0.1:9000" });
    assert.deepEqual(deployed.devAllow, []);
    assert.match(deployed.configError ?? "", /WEBHOOK_DEV_ALLOW is set but ENVIRONMENT is not 'development'/);
    assert.equal(reason("https://example.com/", deployed), deployed.configError);
    assert.deepEqual(webhookPolicy({}), { devAllow: [], configError: null });
    assert.deepEqual(webhookPolicy({ ENVIRONMENT: "production", WEBHOOK_DEV_ALLOW: " , " }), { devAllow: [], configError: null });
  });
});

describe("webhook secrets and outcomes at their edges", () => {
  const secretOf = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString("base64")}`;
  it("a secret is whsec_ + base64 of 24 to 64 bytes; anything else has no key", () => {
    assert.equal(secretKey(secretOf(24))?.length, 24);
    assert.equal(secretKey(secretOf(64))?.length, 64);
    assert.equal(secretKey(secretOf(23)), null);
    assert.equal(secretKey(secretOf(65)), null);
    assert.equal(secretKey(secretOf(32).replace("whsec_", "wh_")), null);
    assert.equal(secretKey(`x${secretOf(32)}`), null);
    assert.equal(secretKey(`${secretOf(32)}!`), null, "a character outside base64 at the end");
    assert.equal(secretKey(`whsec_!${Buffer.alloc(32, 7).toString("base64")}`), null, "at the start");
    assert.equal(secretKey(`whsec_${Buffer.alloc(32, 7).toString("base64").replace(/=*$/, "===")}`), null, "three pads");
    assert.equal(secretKey(`whsec_${"A".repeat(43)}=`)?.length, 32, "one pad");
    assert.equal(secretKey("whsec_"), null);
    assert.equal(secretKey(12 as unknown as string), null);
    assert.ok(SECRET_PREFIX === "whsec_" && generateSecret().startsWith("whsec_"));
  });
  it("signing refuses a bad secret and a header needs at least one", async () => {
    await assert.rejects(sign("whsec_short", "id", 1, "{}"), /invalid webhook secret/);
    await assert.rejects(signatureHeader([], "id", 1, "{}"), /no active webhook secret/);
    const bytes = await sign(secretOf(32), "id", 1, new TextEncoder().encode("{}"));
    assert.equal(bytes, await sign(secretOf(32), "id", 1, "{}"), "bytes and text of the same body sign alike");
  });
  it("2xx is delivered, 199 and 300 are not", () => {
    assert.equal(classify(200, 1), "delivered");
    assert.equal(classify(299, 1), "delivered");
    assert.equal(classify(300, 1), "failed");
    assert.equal(classify(199, 1), "failed");
    assert.equal(classify(499, 1), "failed");
    assert.equal(classify(500, 2), "retry");
    assert.equal(classify(null, 3), "failed");
  });
});
