// JavaScript on the node: Node, no compile step.
import { detectNode } from "../../fleet/src/languages/detect/node.ts";
import type { LanguageRunner } from "../../fleet/src/languages/language-spec.ts";
import { nodeRunArgv } from "../../fleet/src/languages/runtime-flags.ts";

const javascript: LanguageRunner = {
  detect: detectNode,
  run: { argv: (context) => nodeRunArgv(context, [], context.source.fileName) },
};

export default javascript;
