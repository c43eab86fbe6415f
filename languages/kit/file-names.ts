/** Linux file names are at most 255 bytes (one path segment); proto/limits.ts holds requests to it. */
export const MAX_FILE_NAME_BYTES = 255;
