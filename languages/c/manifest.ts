import { defineLanguage } from "../schema.ts";

export default defineLanguage({
  name: "c",
  order: 2,
  title: "C17 (gcc)",
  source: { fileName: "main.c", extensions: [".c"] },
  compile: { artifact: "main" },
  judge0: {
    classicId: 50,
    display: "C (GCC %s)",
    ids: [{ id: 50, version: "9.2" }, { id: 48, version: "7.4" }, { id: 49, version: "8.3" }, { id: 103, version: "14.1" }],
  },
  piston: { name: "c", aliases: ["gcc"] },
  packages: { debian: ["gcc"] },
});
