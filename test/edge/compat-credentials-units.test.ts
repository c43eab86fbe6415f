// The compatibility routes' credentials (compat/credentials.ts): the key as Judge0 and Piston clients send it,
// and the URL as the edge may log it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compatKey, redactedUrl } from "../../edge/src/compat/credentials.ts";

const at = (path: string, init: Record<string, string> = {}) => ({ url: `https://edge.test${path}`, headers: new Headers(init) });
const judge0 = (init: Record<string, string>, query = "") => compatKey(at(`/judge0/statuses${query}`, init));
const piston = (init: Record<string, string>) => compatKey(at("/piston/api/v2/runtimes", init));

describe("compatibility credentials", () => {
  it("X-API-Key, X-Auth-Token, Bearer and Basic (key as user name), on both dialects", () => {
    for (const key of [judge0, piston]) {
      assert.equal(key({ "x-api-key": "k1" }), "k1");
      assert.equal(key({ "x-auth-token": "k2" }), "k2");
      assert.equal(key({ authorization: "Bearer k3" }), "k3");
      assert.equal(key({ authorization: `Basic ${btoa("k4:")}` }), "k4");
      assert.equal(key({ authorization: "Basic !!" }), null);
      assert.equal(key({}), null);
    }
  });

  it("Judge0: the token as a query parameter under Judge0's header name; a header wins over it", () => {
    assert.equal(judge0({}, "?X-Auth-Token=q1"), "q1");
    assert.equal(judge0({}, "?base64_encoded=true&X-Auth-Token=q2&wait=false"), "q2");
    assert.equal(judge0({ "x-auth-token": "h" }, "?X-Auth-Token=q"), "h");
    assert.equal(judge0({}, "?x-auth-token=lower"), null, "Judge0 reads the parameter by its exact name");
    assert.equal(judge0({}, "?X-Auth-Token="), null);
    assert.equal(judge0({ authorization: "Token nope" }, "?X-Auth-Token=q3"), "q3");
  });

  it("Piston: a bare Authorization value is the key; the query is not read", () => {
    assert.equal(piston({ authorization: "sk_bare" }), "sk_bare");
    assert.equal(piston({ authorization: "  sk_bare  " }), "sk_bare");
    assert.equal(compatKey(at("/piston/api/v2/execute?X-Auth-Token=q")), null);
    assert.equal(piston({ authorization: "Bearer" }), null, "a scheme name alone is no key");
    assert.equal(piston({ authorization: "Basic" }), null);
  });

  it("Judge0: a bare Authorization value is no key (not Judge0's; a proxy's header is never taken for one)", () => {
    assert.equal(judge0({ authorization: "sk_bare" }), null);
  });
});

describe("compatibility credentials, edge cases", () => {
  it("trimmed; scheme names in any case; Basic with a password still names the key; empty values are no key", () => {
    assert.equal(judge0({ "x-api-key": "  k1 " }), "k1");
    assert.equal(judge0({ authorization: "  bearer   k3 " }), "k3");
    assert.equal(judge0({ authorization: `BASIC ${btoa("k4:secret")}` }), "k4");
    assert.equal(judge0({ authorization: `Basic ${btoa(":pw")}` }), null);
    assert.equal(judge0({ authorization: "Bearer" }), null);
    assert.equal(judge0({ authorization: "Token k5" }), null);
    assert.equal(piston({ authorization: "Token k5" }), null);
    assert.equal(judge0({ authorization: "Bearer a b" }), null);
    assert.equal(judge0({ authorization: `Basic ${btoa("sk%5Fx:")}` }), "sk_x");
    assert.equal(judge0({ authorization: `Basic ${btoa("%E0%A4%A:")}` }), null, "a malformed escape is no key, not an error");
  });
});

describe("the URL as the edge logs it", () => {
  it("Judge0's credential parameters are replaced, whatever the case of their names; the rest is kept", () => {
    const out = redactedUrl("https://edge.test/judge0/submissions?base64_encoded=true&X-Auth-Token=sk_secret&x-auth-user=u_secret&wait=false");
    assert.doesNotMatch(out, /sk_secret|u_secret/);
    assert.match(out, /base64_encoded=true/);
    assert.match(out, /wait=false/);
    assert.match(out, /X-Auth-Token=REDACTED/);
  });

  it("a URL without credentials is returned as it was; a user part is dropped", () => {
    const plain = "https://edge.test/judge0/statuses?fields=*";
    assert.equal(redactedUrl(plain), plain);
    assert.doesNotMatch(redactedUrl("https://sk_user@edge.test/piston/api/v2/runtimes"), /sk_user/);
    assert.equal(redactedUrl("not a url"), "(unparsable URL)");
  });
});
