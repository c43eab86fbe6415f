// Java's main source file name, read from the code: javac wants the public top-level class's
// name, and the class that runs is the one with a `main`. Both sides use it (the edge refuses an
// extra file of that name; a node names the source so). docs/languages.md, "java".
// Linux file names are at most MAX_FILE_NAME_BYTES; javac writes `<Class>.class` (and `<Class>$1.class`…).
import { MAX_FILE_NAME_BYTES } from "../kit/file-names.ts";

export interface JavaSourcePlan {
  fileName: string;
  /** The class that runs, with its package. */
  entry: string;
  /** Why the source cannot be built at all, in words for the user. */
  problem?: string;
}

/** A Java identifier as javac reads it: any Unicode letter, `_` or `$` first (one code point each). */
const JAVA_ID_START = /[\p{L}\p{Nl}\p{Sc}_]/u;
const JAVA_ID_PART = /[\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Sc}]/u;

const TYPE_KEYWORDS = new Set(["class", "interface", "enum", "record"]);
/** And `non-sealed`, three tokens. */
const TYPE_MODIFIERS = new Set(["final", "abstract", "sealed", "strictfp", "static"]);
const MAIN_MODIFIERS = new Set(["public", "final", "synchronized", "strictfp"]);

/**
 * Java: the file is named after the public top-level class (javac requires it), else after the
 * class that runs; the class that runs is the public class with `static void main`, else the first
 * class with one (a main belongs to the nearest type declared before it), in its package if any.
 * One pass over the code's tokens (javaTokens): linear in its length, whatever it holds.
 */
export function javaSourcePlan(code: string): JavaSourcePlan {
  const tokens = javaTokens(code);
  const word = (i: number): string | undefined => (tokens[i]?.word ? tokens[i]!.text : undefined);
  const punct = (i: number, text: string): boolean => tokens[i]?.word === false && tokens[i]!.text === text;
  let pkg: string | undefined;
  /**
   * Where the last package declaration that failed stopped: a later one whose name would start
   * before that (the token after it was read as a dot) fails the same way, so it is not read again.
   */
  let packageTried = 0;
  /** The token that named the last type: it is no keyword or modifier of the next. */
  let lastName = -1;
  const types: { name: string; isPublic: boolean; at: number; hasMain: boolean }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token.word) continue;
    if (pkg === undefined && token.text === "package" && token.lineStart && i + 1 >= packageTried) {
      const declared = packageName(tokens, i + 1);
      if (typeof declared === "string") pkg = declared;
      else packageTried = declared.failedAt;
    }
    if (TYPE_KEYWORDS.has(token.text) && word(i + 1) !== undefined && i > lastName) {
      // `public`, then any of the modifiers, right before the keyword (not the last type's name)
      const free = (at: number) => (at > lastName ? word(at) : undefined);
      let before = i - 1;
      for (;;) {
        if (free(before) === "sealed" && punct(before - 1, "-") && free(before - 2) === "non" && tokens[before - 2]!.at + 4 === tokens[before]!.at) before -= 3;
        else if (TYPE_MODIFIERS.has(free(before) ?? "")) before--;
        else break;
      }
      types.push({ name: word(i + 1)!, isPublic: free(before) === "public", at: token.at, hasMain: false });
      lastName = i + 1;
    }
    if (token.text === "static") {
      let next = i + 1;
      while (MAIN_MODIFIERS.has(word(next) ?? "")) next++;
      if (word(next) === "void" && word(next + 1) === "main" && punct(next + 2, "(")) {
        // the nearest type declared before it
        const owner = types.at(-1);
        if (owner) owner.hasMain = true;
      }
    }
  }
  const publicType = types.find((type) => type.isPublic)?.name;
  const runs = types.find((type) => type.isPublic && type.hasMain) ?? types.find((type) => type.hasMain);
  const className = publicType ?? runs?.name ?? (types.some((type) => type.name === "Main") ? "Main" : types[0]?.name) ?? "Main";
  const entryClass = runs?.name ?? className;
  const fileName = `${className}.java`;
  const bytes = new TextEncoder().encode(`${className}.class`).length;
  const problem =
    bytes > MAX_FILE_NAME_BYTES
      ? `the class name ${className.slice(0, 40)}… is too long: a class file name may be at most ${MAX_FILE_NAME_BYTES} bytes ` +
        `(this one is ${bytes} bytes in UTF-8); shorten the public class name`
      : undefined;
  return { fileName, entry: pkg ? `${pkg}.${entryClass}` : entryClass, ...(problem ? { problem } : {}) };
}

/** `a.b.c` from the tokens `a . b . c ;` at `i`; else the index of the token that is not. */
function packageName(tokens: readonly JavaToken[], i: number): string | { failedAt: number } {
  const parts: string[] = [];
  for (;;) {
    const name = tokens[i];
    if (!name?.word) return { failedAt: i };
    parts.push(name.text);
    const after = tokens[i + 1];
    if (after?.text === ";" && !after.word) return parts.join(".");
    if (after?.text !== "." || after.word) return { failedAt: i + 1 };
    i += 2;
  }
}

export interface JavaToken {
  /** An identifier or keyword; else one character of punctuation, or a number (digits first, no dot). */
  word: boolean;
  text: string;
  /** Offset in the code. */
  at: number;
  /** Only white space and comments between the line's start (or the code's) and this token. */
  lineStart: boolean;
}

/**
 * The code's identifiers and punctuation, in one forward pass: comments, string and character
 * literals and text blocks are skipped whole (so nothing in them declares anything); an unclosed
 * one runs to the end (javac refuses it anyway). A word is a run of identifier characters (a
 * number's too), punctuation one token per character.
 */
export function javaTokens(code: string): JavaToken[] {
  const tokens: JavaToken[] = [];
  const length = code.length;
  let lineStart = true;
  let i = 0;
  /** Past the first of `end` at or after `from`, or the end of the code. */
  const past = (end: string, from: number): number => {
    const at = code.indexOf(end, from);
    return at < 0 ? length : at + end.length;
  };
  /** Past a quoted literal's closing quote (a backslash escapes the next character); a line break ends it too. */
  const pastQuoted = (quote: number, from: number): number => {
    for (let j = from; j < length; j++) {
      const c = code.charCodeAt(j);
      if (c === quote) return j + 1;
      if (c === 0x5c /* \ */) j++;
      else if (c === 0x0a || c === 0x0d) return j;
    }
    return length;
  };
  /** Past a text block's closing `"""` (a backslash escapes the next character). */
  const pastTextBlock = (from: number): number => {
    for (let j = from; j < length; j++) {
      const c = code.charCodeAt(j);
      if (c === 0x5c) j++;
      else if (c === 0x22 && code.startsWith('"""', j)) return j + 3;
    }
    return length;
  };
  while (i < length) {
    const c = code.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) {
      lineStart = true;
      i++;
    } else if (isSpace(c)) {
      i++;
    } else if (c === 0x2f /* / */ && code.charCodeAt(i + 1) === 0x2f) {
      // to the line's end: the line break stays, to start the next line
      let j = i + 2;
      while (j < length && !isLineBreak(code.charCodeAt(j))) j++;
      i = j;
    } else if (c === 0x2f && code.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = past("*/", i + 2);
      for (let j = i + 2; j < end; j++) if (isLineBreak(code.charCodeAt(j))) lineStart = true;
      i = end;
    } else if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
      const end = c === 0x22 && code.startsWith('"""', i) ? pastTextBlock(i + 3) : pastQuoted(c, i + 1);
      tokens.push({ word: false, text: code[i]!, at: i, lineStart });
      lineStart = false;
      i = end;
    } else {
      const first = code.codePointAt(i)!;
      const word = isIdStart(first);
      let end = i + (first > 0xffff ? 2 : 1);
      if (word || isIdPart(first)) {
        // an identifier, or a number's digits and letters (its dot is punctuation)
        for (let next = code.codePointAt(end); next !== undefined && isIdPart(next); next = code.codePointAt(end)) end += next > 0xffff ? 2 : 1;
      }
      tokens.push({ word, text: code.slice(i, end), at: i, lineStart });
      lineStart = false;
      i = end;
    }
  }
  return tokens;
}

const isLineBreak = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

/** JavaScript's `\s` less the line breaks (the set the rule's first form read as white space). */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0c);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

const isAsciiLetter = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
const isIdStart = (c: number): boolean =>
  c < 0x80 ? isAsciiLetter(c) || c === 0x5f /* _ */ || c === 0x24 /* $ */ : JAVA_ID_START.test(String.fromCodePoint(c));
const isIdPart = (c: number): boolean =>
  c < 0x80 ? isAsciiLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24 : JAVA_ID_PART.test(String.fromCodePoint(c));
