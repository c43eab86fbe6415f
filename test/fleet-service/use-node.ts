// The prelude of a suite that talks to one test node over native gRPC: the node starts (and a
// native client connects to it) before the suite's tests, and both stop after them.
import { after, before } from "../hooks.ts";
import { nativeClient, startTestNode, type NativeClient, type TestNode } from "./helpers.ts";

export function useNode(options: Parameters<typeof startTestNode>[0], started: (it: { node: TestNode; client: NativeClient }) => void): void {
  let node: TestNode;
  let client: NativeClient;
  before(async () => {
    node = await startTestNode(options);
    client = nativeClient(node.grpcAddress);
    started({ node, client });
  });
  after(async () => {
    client.close();
    await node.close();
  });
}
