// Settings: flags over environment over defaults, and the refusals that protect the credential.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ConfigError, isLoopback, parseConfig } from "../../fleet/src/service/config.ts";

const token = "0123456789abcdef0123";

test("defaults", () => {
  const config = parseConfig([], { FLEET_TOKEN: token });
  assert.equal(config.host, "127.0.0.1");
  assert.equal(config.grpcPort, 50051);
  assert.equal(config.grpcWebPort, 50052);
  assert.equal(config.grpcMaxConcurrentStreams, 100);
  assert.equal(config.slots, availableParallelism());
  assert.equal(config.queueCapacity, 64);
  assert.equal(config.resultRetentionSecs, 600);
  assert.equal(config.maxRetainedResults, 10_000);
  assert.equal(config.maxRetainedResultBytes, 256 * 1024 * 1024);
  assert.equal(config.inflightBytes, 1024 * 1024 * 1024);
  assert.equal(config.nodeId, hostname().toLowerCase());
  assert.equal(config.tls, undefined);
  assert.equal(config.token, token);
});

test("a flag wins over its environment variable", () => {
  const env = { FLEET_TOKEN: token, FLEET_SLOTS: "3", FLEET_GRPC_PORT: "6000", FLEET_NODE_ID: "from-env" };
  const config = parseConfig(["--slots", "5", "--node-id", "from-flag"], env);
  assert.equal(config.slots, 5);
  assert.equal(config.grpcPort, 6000);
  assert.equal(config.nodeId, "from-flag");
});

test("the token comes from FLEET_TOKEN or FLEET_TOKEN_FILE, is required, and is not a flag", () => {
  const file = join(mkdtempSync(join(tmpdir(), "fleet-config-")), "token");
  writeFileSync(file, `${token}\n`);
  assert.equal(parseConfig([], { FLEET_TOKEN_FILE: file }).token, token);
  assert.throws(() => parseConfig([], {}), /FLEET_TOKEN or FLEET_TOKEN_FILE/);
  assert.throws(() => parseConfig([], { FLEET_TOKEN: "short" }), /at least 16/);
  assert.throws(() => parseConfig([], { FLEET_TOKEN: token, FLEET_TOKEN_FILE: file }), /not both/);
  assert.throws(() => parseConfig(["--token", token], {}), /unknown option/);
});

test("plaintext only on loopback; TLS files must come in pairs", () => {
  assert.throws(() => parseConfig(["--host", "0.0.0.0"], { FLEET_TOKEN: token }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /refusing to serve plaintext on 0\.0\.0\.0: set FLEET_TLS_CERT and FLEET_TLS_KEY/);
    return true;
  });
  assert.throws(() => parseConfig([], { FLEET_TOKEN: token, FLEET_TLS_CERT: "/x" }), /must be set together/);
  for (const host of ["127.0.0.1", "127.1.2.3", "::1", "localhost", "::ffff:127.0.0.1"]) assert.ok(isLoopback(host), host);
  for (const host of ["0.0.0.0", "10.0.0.1", "::", "example.com"]) assert.ok(!isLoopback(host), host);
});

test("the native gRPC stream cap: environment, flag, bounds", () => {
  assert.equal(parseConfig([], { FLEET_TOKEN: token, FLEET_GRPC_MAX_CONCURRENT_STREAMS: "8" }).grpcMaxConcurrentStreams, 8);
  assert.equal(parseConfig(["--grpc-max-concurrent-streams", "250"], { FLEET_TOKEN: token }).grpcMaxConcurrentStreams, 250);
  for (const bad of ["0", "10001", "many"]) {
    assert.throws(
      () => parseConfig([], { FLEET_TOKEN: token, FLEET_GRPC_MAX_CONCURRENT_STREAMS: bad }),
      /FLEET_GRPC_MAX_CONCURRENT_STREAMS \(--grpc-max-concurrent-streams\) must be an integer from 1 to 10000/,
    );
  }
});

test("bad numbers are refused with the variable's name", () => {
  assert.throws(() => parseConfig([], { FLEET_TOKEN: token, FLEET_SLOTS: "0" }), /FLEET_SLOTS \(--slots\) must be an integer from 1/);
  assert.throws(() => parseConfig([], { FLEET_TOKEN: token, FLEET_GRPC_PORT: "http" }), /FLEET_GRPC_PORT/);
  // Below 16 MiB the budget could not hold the largest result (docs/fleet-node.md, "Output budget").
  assert.throws(() => parseConfig([], { FLEET_TOKEN: token, FLEET_MAX_RETAINED_RESULT_MIB: "8" }), /FLEET_MAX_RETAINED_RESULT_MIB \(--max-retained-result-mib\) must be an integer from 16/);
  assert.equal(parseConfig(["--max-retained-result-mib", "64"], { FLEET_TOKEN: token }).maxRetainedResultBytes, 64 * 1024 * 1024);
  // Below 64 MiB the largest single submission would not fit an idle node (docs/fleet-node.md, "Memory").
  assert.throws(() => parseConfig([], { FLEET_TOKEN: token, FLEET_INFLIGHT_MIB: "32" }), /FLEET_INFLIGHT_MIB \(--inflight-mib\) must be an integer from 64/);
  assert.equal(parseConfig(["--inflight-mib", "512"], { FLEET_TOKEN: token, FLEET_INFLIGHT_MIB: "128" }).inflightBytes, 512 * 1024 * 1024);
});

test("main refuses plaintext on a public address with a clear message and exit code 2", () => {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  try {
    execFileSync(process.execPath, ["fleet/src/main.ts"], {
      cwd: root,
      env: { ...process.env, FLEET_TOKEN: token, FLEET_HOST: "0.0.0.0" },
      stdio: "pipe",
    });
    assert.fail("main started");
  } catch (error) {
    const failure = error as { status: number; stderr: Buffer };
    assert.equal(failure.status, 2);
    assert.match(failure.stderr.toString(), /^codecell-fleet: refusing to serve plaintext on 0\.0\.0\.0/);
  }
});
