#!/usr/bin/env bash
# Two-handed strength of expert against pro (docs/two-handed.md), in chunks so that a
# long measurement survives interruption: each chunk is a duplicate match of its
# own seed (seats swapped, one hand each way), written as JSON; the chunks are
# pooled by bench/expert_combine.py.
#
#   A="expert(time=0.1)" FIRST=7 CHUNKS=10 CHUNK=20 bash bench/expert_two_strength.sh
#
# Seeds FIRST, FIRST+STEP, ... (STEP=1 by default; run two loops with STEP=2 and
# FIRST=7 / FIRST=8 to use both cores).
set -euo pipefail
cd "$(dirname "$0")/.."
A=${A:-"expert(time=0.1)"}
B=${B:-pro}
FIRST=${FIRST:-7}
STEP=${STEP:-1}
CHUNKS=${CHUNKS:-10}
CHUNK=${CHUNK:-20}
OUT=${OUT:-expert_two_results}
mkdir -p "$OUT"
for ((i = 0; i < CHUNKS; i++)); do
    seed=$((FIRST + i * STEP))
    file="$OUT/seed-$seed.json"
    [[ -s "$file" ]] && continue
    nice -n 10 .venv/bin/python -m pinochlekit match "$A" "$B" --rules two --deals "$CHUNK" \
        --seed "$seed" --workers 1 --json --quiet > "$file.part"
    mv "$file.part" "$file"
done
.venv/bin/python bench/expert_combine.py "$OUT"/seed-*.json
