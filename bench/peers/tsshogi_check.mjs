// Peer: tsshogi imports each CSA file (parsing and replaying its moves).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
const [dir, lib] = process.argv.slice(2);
const { importCSA } = await import(join(lib, "dist", "index.js")).catch(() => import("tsshogi"));
let games = 0, plies = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith(".csa")).sort()) {
  const rec = importCSA(readFileSync(join(dir, f), "utf8"));
  if (rec instanceof Error) throw rec;
  games += 1;
  plies += rec.moves.length - 1;
}
console.error(games, plies);
