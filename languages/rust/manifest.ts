import { defineLanguage } from "../schema.ts";

export default defineLanguage({
  name: "rust",
  order: 8,
  aliases: ["rs"],
  title: "Rust (a rustup toolchain, else Debian's rustc)",
  source: { fileName: "main.rs", extensions: [".rs"] },
  compile: { artifact: "main" },
  judge0: { classicId: 73, display: "Rust (%s)", ids: [{ id: 73, version: "1.40" }, { id: 108, version: "1.85" }] },
  piston: { name: "rust", aliases: ["rs"] },
  packages: { debian: ["rustc"] },
});
