// Peer, convert-to-JSON task: tsshogi imports each CSA file (parsing and
// replaying its moves) and writes it as JKF, the JSON kifu format, one file
// each, as `kifu convert --to jkf --out-dir` does.
// Usage: node tsshogi_jkf.mjs DIR OUT_DIR PATH/TO/node_modules/tsshogi
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [dir, out, lib] = process.argv.slice(2);
const { importCSA, exportJKFString } = await import(pathToFileURL(join(lib, "dist", "esm", "index.mjs")).href);
mkdirSync(out, { recursive: true });
// The loop alone is timed too: start-up and module loading are not throughput.
const t0 = performance.now();
let games = 0, plies = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith(".csa")).sort()) {
  const rec = importCSA(readFileSync(join(dir, f), "utf8"));
  if (rec instanceof Error) throw rec;
  writeFileSync(join(out, f.replace(/\.csa$/, ".jkf")), exportJKFString(rec));
  games += 1;
  plies += rec.moves.length - 1;
}
console.error(`tsshogi: ${games} games, ${plies} plies`);
console.error(`loop-seconds ${((performance.now() - t0) / 1000).toFixed(6)}`);
if (games === 0) process.exit(1);
