// The precheck both transports run on a call's head before its body: open services, the
// credential, then the announced size, in that order.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createCredentialCheck } from "../../fleet/src/service/auth.ts";
import { Status } from "../../fleet/src/service/errors.ts";
import { MAX_REQUEST_BODY_BYTES, MAX_REQUEST_MESSAGE_BYTES, createPrecheck, fleetMethod } from "../../fleet/src/service/precheck.ts";
import { MAX_EXECUTE_REQUEST_BYTES } from "../../proto/limits.ts";
import { TOKEN } from "./helpers.ts";

const precheck = createPrecheck(createCredentialCheck(TOKEN));
const none = new Map<string, string>();
const good = new Map([["authorization", `Bearer ${TOKEN}`]]);
const wrong = new Map([["authorization", "Bearer wrong-token-wrong-token"]]);

test("health is open; every other path needs the credential", () => {
  assert.equal(precheck({ path: "/grpc.health.v1.Health/Check", metadata: none }), undefined);
  assert.equal(precheck({ path: "/grpc.health.v1.Health/Watch", metadata: none }), undefined);
  for (const path of [
    "/codecell.fleet.v1.FleetService/Execute",
    "/codecell.fleet.v1.FleetService/Drain",
    "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    "/grpc.health.v1.HealthX/Check",
    "/metrics",
    "/some.future.Service/Method",
  ]) {
    for (const metadata of [none, wrong]) assert.equal(precheck({ path, metadata })?.code, Status.UNAUTHENTICATED, path);
    assert.equal(precheck({ path, metadata: good }), undefined, path);
  }
});

test("the credential comes before the announced size; the cap is one message in its gRPC-Web frame", () => {
  const path = "/codecell.fleet.v1.FleetService/Execute";
  assert.equal(MAX_REQUEST_MESSAGE_BYTES, MAX_EXECUTE_REQUEST_BYTES);
  assert.equal(MAX_REQUEST_BODY_BYTES, MAX_REQUEST_MESSAGE_BYTES + 5);
  assert.equal(precheck({ path, metadata: none, announcedBodyBytes: MAX_REQUEST_BODY_BYTES + 1 })?.code, Status.UNAUTHENTICATED);
  assert.deepEqual(precheck({ path, metadata: good, announcedBodyBytes: MAX_REQUEST_BODY_BYTES + 1 }), {
    code: Status.RESOURCE_EXHAUSTED,
    message: "request too large",
  });
  assert.equal(precheck({ path, metadata: good, announcedBodyBytes: MAX_REQUEST_BODY_BYTES }), undefined);
  assert.equal(precheck({ path, metadata: good }), undefined);
});

test("fleetMethod names the FleetService method of a path", () => {
  assert.equal(fleetMethod("/codecell.fleet.v1.FleetService/Execute"), "execute");
  assert.equal(fleetMethod("/codecell.fleet.v1.FleetService/GetResult"), "getResult");
  assert.equal(fleetMethod("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"), undefined);
});
