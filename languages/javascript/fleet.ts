// JavaScript on the node: Node, no compile step.
import { detectNode } from "../kit/detect/node.ts";
import type { LanguageRunner } from "../kit/language-spec.ts";
import { nodeRunArgv } from "../kit/runtime-flags.ts";

const javascript: LanguageRunner = {
  detect: detectNode,
  run: { argv: (context) => nodeRunArgv(context, [], context.source.fileName) },
};

export default javascript;
