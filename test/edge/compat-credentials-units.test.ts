// The compatibility routes' credentials (compat/credentials.ts): the key as Judge0 and Piston clients send it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compatKey } from "../../edge/src/compat/credentials.ts";

describe("compatibility credentials", () => {
  it("X-API-Key, X-Auth-Token, Bearer and Basic (key as user name)", () => {
    const h = (init: Record<string, string>) => new Headers(init);
    assert.equal(compatKey(h({ "x-api-key": "k1" })), "k1");
    assert.equal(compatKey(h({ "x-auth-token": "k2" })), "k2");
    assert.equal(compatKey(h({ authorization: "Bearer k3" })), "k3");
    assert.equal(compatKey(h({ authorization: `Basic ${btoa("k4:")}` })), "k4");
    assert.equal(compatKey(h({ authorization: "Basic !!" })), null);
    assert.equal(compatKey(h({})), null);
  });
});

describe("compatibility credentials, edge cases", () => {
  it("trimmed; scheme names in any case; Basic with a password still names the key; empty values are no key", () => {
    const h = (init: Record<string, string>) => new Headers(init);
    assert.equal(compatKey(h({ "x-api-key": "  k1 " })), "k1");
    assert.equal(compatKey(h({ authorization: "  bearer   k3 " })), "k3");
    assert.equal(compatKey(h({ authorization: `BASIC ${btoa("k4:secret")}` })), "k4");
    assert.equal(compatKey(h({ authorization: `Basic ${btoa(":pw")}` })), null);
    assert.equal(compatKey(h({ authorization: "Bearer" })), null);
    assert.equal(compatKey(h({ authorization: "Token k5" })), null);
    assert.equal(compatKey(h({ authorization: `Basic ${btoa("sk%5Fx:")}` })), "sk_x");
  });
});
