// Python on the node: Debian's python3, no compile step.
import type { LanguageRunner } from "../kit/language-spec.ts";
import { detectPython } from "./detect.ts";

const python: LanguageRunner = {
  detect: detectPython,
  run: {
    argv: ({ toolchain, source }) => [toolchain.paths.python!, "-B", source.fileName],
    env: () => ({ PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1", PYTHONHASHSEED: "0" }),
  },
};

export default python;
