import type { LanguagePrograms } from "../schema.ts";

// The programs every language's suite runs (test/languages/languages.test.ts).
const programs: LanguagePrograms = {
  hello: 'fn main() { println!("hello, world"); }',
  sum: "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let t: i64 = s.split_whitespace().map(|x| x.parse::<i64>().unwrap()).sum(); println!(\"{}\", t); }",
  runtimeError: 'fn main() { let v: Vec<i32> = Vec::new(); let i = std::env::args().count() + 5; println!("{}", v[i]); }',
  compileError: 'fn main() { let x: i32 = "no"; }',
  spin: "fn main() { let mut i: u64 = 0; loop { i = std::hint::black_box(i + 1); } }",
  hog: "fn main() { let mut hog = Vec::new(); loop { hog.push(vec![1u8; 1 << 20]); } }",
  hogVerdict: "MLE",
};

export default programs;
