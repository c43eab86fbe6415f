// Trimming without a regex. `/\/+$/` is tried from every position of a run of slashes that does not
// reach the end (`////…x`) and scans the run each time: quadratic in the run's length. Both sides
// use this (runtime-neutral: no Node API).

/** `text` without the run of `char` (one UTF-16 code unit) at its end. */
export function withoutTrailing(text: string, char: string): string {
  const unit = char.charCodeAt(0);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === unit) end--;
  return end === text.length ? text : text.slice(0, end);
}
