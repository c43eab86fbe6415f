import { defineLanguage } from "../schema.ts";

export default defineLanguage({
  name: "typescript",
  order: 6,
  aliases: ["ts"],
  title: "TypeScript (Node.js's own transpiler, no type check)",
  source: { fileName: "main.ts", extensions: [".ts"] },
  compile: { artifact: "main.js" },
  judge0: { classicId: 74, display: "TypeScript (%s)", ids: [{ id: 74, version: "3.7" }, { id: 94, version: "5.0" }, { id: 101, version: "5.6" }] },
  piston: { name: "typescript", aliases: ["ts", "node-ts", "tsc"], runtime: "node" },
  packages: { npm: ["node"] },
});
