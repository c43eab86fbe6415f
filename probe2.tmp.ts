import { Sandbox } from "/work/main/fleet/src/sandbox/sandbox.ts";
import { RUN_LIMITS } from "/work/main/fleet/src/sandbox/limits.ts";
const sb = await Sandbox.create({ stateDir: "/tmp/probe/state2", slots: 1, cgroupParent: "codecell-probe" });
for (const argv of [["/bin/true"], ["/bin/sh", "-c", "echo hi; ls -la /etc /dev"]]) {
  const r = await sb.run({ argv, limits: RUN_LIMITS });
  console.log(argv, r.result.verdict, r.result.exit_code, r.result.error_message, JSON.stringify(r.result.stdout), JSON.stringify(r.result.stderr));
}
await sb.close();
