import { defineLanguage } from "../schema.ts";

export default defineLanguage({
  name: "go",
  order: 7,
  title: "Go (Debian's golang-go and every /usr/lib/go-<version>)",
  source: { fileName: "main.go", extensions: [".go"] },
  compile: { artifact: "main" },
  judge0: {
    classicId: 60,
    display: "Go (%s)",
    ids: [{ id: 60, version: "1.13" }, { id: 95, version: "1.18" }, { id: 106, version: "1.22" }, { id: 107, version: "1.23" }],
  },
  piston: { name: "go", aliases: ["golang"] },
  packages: { debian: ["golang-go"] },
});
