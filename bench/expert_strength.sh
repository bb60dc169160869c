#!/usr/bin/env bash
# Strength of `expert` against `pro` by duplicate `pinochle match`, in chunks.
#
# Each chunk is one `pinochle match` of CHUNK deal pairs with its own seed
# (1, 2, ...), one worker, under nice; the JSON of each chunk is kept in OUT, so
# a long run can be stopped and what finished still counts. At the end
# bench/expert_combine.py pools the deal pairs of every finished chunk into one
# mean and 95% confidence interval.
#
#   bash bench/expert_strength.sh                       # the issue's measurement:
#                                                       # 8 x 250 = 2,000 pairs, pagat
#   RULES=modern bash bench/expert_strength.sh
#   A="expert(time=0.1)" CHUNKS=2 CHUNK=100 bash bench/expert_strength.sh
#
# Variables: A (default "expert", i.e. time=1.0), B (default pro), RULES
# (default pagat), CHUNKS (8), CHUNK (250), FIRST (first seed, 1), OUT
# (default expert_strength_results/RULES).
set -euo pipefail
cd "$(dirname "$0")/.."
A=${A:-expert}
B=${B:-pro}
RULES=${RULES:-pagat}
CHUNKS=${CHUNKS:-8}
CHUNK=${CHUNK:-250}
FIRST=${FIRST:-1}
OUT=${OUT:-expert_strength_results/$RULES}
PY=${PY:-.venv/bin/python}
mkdir -p "$OUT"
for ((seed = FIRST; seed < FIRST + CHUNKS; seed++)); do
    file="$OUT/seed-$seed.json"
    if [[ -s "$file" ]]; then
        # A finished chunk counts only for the same players and rules (else: another OUT).
        "$PY" - "$file" "$A" "$B" "$RULES" <<'CHECK' || exit 1
import json, sys
from pinochlekit.players import make_player
path, a, b, rules = sys.argv[1:]
data = json.load(open(path, encoding="utf-8"))
def same(x, y):
    return repr(make_player(x)) == repr(make_player(y))
if not (same(data["players"]["A"], a) and same(data["players"]["B"], b)) \
        or data["rules"] != rules:
    sys.exit(f"{path}: {data['players']['A']} vs {data['players']['B']} under "
             f"{data['rules']}, not {a} vs {b} under {rules}: choose another OUT")
CHECK
        echo "chunk $seed: already done ($file)"
        continue
    fi
    echo "chunk $seed: $A vs $B, $CHUNK deal pairs, $RULES" >&2
    nice -n 10 "$PY" -m pinochlekit match "$A" "$B" --deals "$CHUNK" --seed "$seed" \
        --rules "$RULES" --workers 1 --json --quiet > "$file.part"
    mv "$file.part" "$file"
done
"$PY" bench/expert_combine.py "$OUT"/seed-*.json
