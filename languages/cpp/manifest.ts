import { defineLanguage } from "../schema.ts";

export default defineLanguage({
  name: "cpp",
  order: 3,
  aliases: ["c++", "cxx", "cc"],
  title: "C++20 (g++)",
  source: { fileName: "main.cpp", extensions: [".cpp", ".cc", ".cxx"] },
  compile: { artifact: "main" },
  judge0: {
    classicId: 54,
    display: "C++ (GCC %s)",
    ids: [{ id: 54, version: "9.2" }, { id: 52, version: "7.4" }, { id: 53, version: "8.3" }, { id: 105, version: "14.1" }],
  },
  piston: { name: "c++", aliases: ["cpp", "g++"] },
  packages: { debian: ["g++"] },
});
