/** One (language, version) the node offers: NodeInfo's Language. */
export interface LanguageInfo {
  /** Canonical name, e.g. "cpp". */
  name: string;
  /** The toolchain's own version number, what a request's `version` selects, e.g. "12.2.0". */
  version: string;
  /** Other names a request may use: a short form ("1.23"), the toolchain's own text ("go1.23.5"). */
  aliases: string[];
  /** The version a request without `version` gets (one per language). */
  default: boolean;
  compiled: boolean;
  /** Curated libraries importable without network. */
  libraries: string[];
}
