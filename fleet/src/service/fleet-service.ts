// The FleetService implementation both transports serve, behind one guard: credential check,
// error mapping (unexpected exceptions become INTERNAL, details only in the log), call metrics,
// and no message above the gRPC-Web frame cap (message-size.ts: a clean status, not a broken stream).
import { FleetServiceDefinition } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { CredentialCheck } from "./auth.ts";
import { createCancel } from "./cancel.ts";
import { createSendInput } from "./send-input.ts";
import { createDrain } from "./drain.ts";
import { STATUS_NAMES, ServiceError, Status, toStatus } from "./errors.ts";
import { createExecute } from "./execute.ts";
import type { FleetNode } from "./fleet-node.ts";
import { createGetResult } from "./get-result.ts";
import { assertFits } from "./message-size.ts";
import { createNodeInfo } from "./node-info.ts";
import type { CallContext, FleetServiceImplementation, MethodName } from "./call-context.ts";

export function createFleetService(node: FleetNode, checkCredential: CredentialCheck): FleetServiceImplementation {
  const handlers = {
    execute: createExecute(node),
    getResult: createGetResult(node),
    nodeInfo: createNodeInfo(node),
    drain: createDrain(node),
    cancel: createCancel(node),
    sendInput: createSendInput(node),
  };

  const finish = (method: MethodName, context: CallContext, error?: unknown): ServiceError | undefined => {
    let code: number = Status.OK;
    let mapped: ServiceError | undefined;
    if (error !== undefined) {
      const status = toStatus(error);
      if (status.unexpected) node.logger.error({ err: error, method, transport: context.transport }, "handler failed");
      code = status.code;
      mapped = new ServiceError(status.code, status.message);
    }
    if (context.signal.aborted && code === Status.OK) code = Status.CANCELLED;
    node.metrics.rpcs.inc({ method, transport: context.transport, code: STATUS_NAMES[code] ?? String(code) });
    if (code !== Status.OK && code !== Status.CANCELLED) {
      node.logger.info({ method, transport: context.transport, peer: context.peer, code: STATUS_NAMES[code] }, mapped?.message);
    }
    return mapped;
  };

  const responseType = (method: MethodName) => {
    const definition = FleetServiceDefinition.methods[method];
    // The contract names every reply <Method>Response.
    return { name: `${definition.name}Response`, type: definition.responseType as { encode(message: unknown): { finish(): Uint8Array } } };
  };

  function unary<M extends "getResult" | "nodeInfo" | "drain" | "cancel" | "sendInput">(method: M) {
    const handler = handlers[method] as (request: unknown, context: CallContext) => Promise<unknown>;
    const response = responseType(method);
    return async (request: unknown, context: CallContext) => {
      try {
        checkCredential(context.metadata);
        const reply = await handler(request, context);
        assertFits(response.name, reply, response.type);
        finish(method, context);
        return reply;
      } catch (error) {
        throw finish(method, context, error);
      }
    };
  }
  const executeResponse = responseType("execute");

  return {
    async *execute(request, context) {
      let failed = false;
      try {
        checkCredential(context.metadata);
        for await (const message of handlers.execute(request, context)) {
          assertFits(executeResponse.name, message, executeResponse.type);
          yield message;
        }
      } catch (error) {
        failed = true;
        throw finish("execute", context, error);
      } finally {
        if (!failed) finish("execute", context);
      }
    },
    getResult: unary("getResult"),
    nodeInfo: unary("nodeInfo"),
    drain: unary("drain"),
    cancel: unary("cancel"),
    sendInput: unary("sendInput"),
  } as FleetServiceImplementation;
}
