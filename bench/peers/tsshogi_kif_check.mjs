// Peer: tsshogi imports each Shift_JIS KIF file (parsing and replaying its moves).
// Usage: node tsshogi_kif_check.mjs DIR PATH/TO/node_modules/tsshogi
// Exits non-zero (so the bench reports a failure, not a time) if anything fails.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [dir, lib] = process.argv.slice(2);
const { importKIF } = await import(pathToFileURL(join(lib, "dist", "esm", "index.mjs")).href);
// The generated .kif files are Shift_JIS, as Kifu for Windows writes them;
// decoding is part of reading a record, so it is inside the timed loop.
const sjis = new TextDecoder("shift_jis", { fatal: true });
const t0 = performance.now();
let games = 0, plies = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith(".kif")).sort()) {
  const rec = importKIF(sjis.decode(readFileSync(join(dir, f))));
  if (rec instanceof Error) throw rec;
  games += 1;
  plies += rec.moves.length - 1;
}
console.error(`tsshogi: ${games} games, ${plies} plies`);
console.error(`loop-seconds ${((performance.now() - t0) / 1000).toFixed(6)}`);
if (games === 0) process.exit(1);
