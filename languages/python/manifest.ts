import { defineLanguage } from "../schema.ts";

export default defineLanguage({
  name: "python",
  order: 1,
  aliases: ["py"],
  title: "Python 3 (Debian's python3)",
  source: { fileName: "main.py", extensions: [".py"] },
  judge0: {
    classicId: 71,
    display: "Python (%s)",
    ids: [{ id: 71, version: "3.8" }, { id: 92, version: "3.11" }, { id: 100, version: "3.12" }, { id: 109, version: "3.13" }],
  },
  piston: { name: "python", aliases: ["py", "py3", "python3"] },
  packages: { debian: ["python3"] },
  libraries: [{ name: "numpy", debianPackage: "python3-numpy", probe: "/usr/lib/python3/dist-packages/numpy/__init__.py" }],
});
