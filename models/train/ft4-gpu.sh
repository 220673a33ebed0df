#!/usr/bin/env bash
# The ft4 fine-tuning runs of 2026-11-26, each made on one GPU host (an H200 lent through the
# workplace's device tool) in one call, two runs side by side: NAME (the ft2 recipe from the npm
# build's CenterNet, about 100× the samples) and NAME-d (the same plus ft3's footage degradations at
# lower shares). Run from the repository root with models/centernet.onnx (npm ci builds it) and
# models/train/runs/pack (models/train/pack.py) present; OUT is where the snapshots and logs go. The
# same command runs on a CPU (--device cpu, slowly): --steps as recorded in each snapshot's metadata
# replaces --time-budget-min, and the samples are the same (train.py seeds each sample).
#   first call:  NAME=ft4  MINUTES=6.5                  bash models/train/ft4-gpu.sh   (its runs: ft4 and ft4d; the script then named the second run ft4d)
#   second call: NAME=ft4p MINUTES=4.6 EXTRA=--w-person=30 bash models/train/ft4-gpu.sh
# The ft5 call of 2026-11-26 (eighth session; one call, both runs with ft4p-d's data, degradations and
# person distillation; ft5 from the npm build's CenterNet, ft5-c continuing from the committed ft4):
#   OUT=$OUT NAME=ft5 MINUTES=8.2 WORKERS=7 SNAPSHOTS=0.75 SUFFIX=c \
#     EXTRA="--w-person=30 --jpeg-share 0.25 --downscale-share 0.2 --motion-blur-share 0.1" \
#     SECOND="--base models/basketball-centernet.onnx --lr 7.5e-5" bash models/train/ft4-gpu.sh
# (SECOND's options come after EXTRA's, and argparse keeps the last of a repeated option.)
# The GPU host of these calls ran PyTorch 2.11.0+cu130, numpy 2.5.2 and OpenCV 5.0 (from the calls'
# output); requirements.txt lists this machine's, where the snapshots were chosen, measured and exported.
set -u
OUT=${OUT:-models/train/runs}
NAME=${NAME:-ft4}
MINUTES=${MINUTES:-6.5}
PYTHON=${PYTHON:-python3}
EXTRA=${EXTRA:-}
# ft5 (2026-11-26, eighth session) varied these; their defaults are ft4's.
BASE=${BASE:-models/centernet.onnx}
LR=${LR:-1.5e-4}
WORKERS=${WORKERS:-6}
SECOND=${SECOND:---jpeg-share 0.25 --downscale-share 0.2 --motion-blur-share 0.1}
SUFFIX=${SUFFIX:-d}
common=(--base "$BASE" --teacher models/centernet.onnx --pack models/train/runs/pack
  --batch 32 --lr "$LR" --warmup 100 --realclip-share 0.3 --seed 24 --steps 100000 --time-budget-min "$MINUTES"
  --snapshot-at "${SNAPSHOTS:-0.5,0.75}" --save-every 1000000 --log-every 250 --loader-workers "$WORKERS" --threads 1 $EXTRA)
"$PYTHON" models/train/train.py "${common[@]}" --run "/tmp/$NAME" > "/tmp/$NAME.out" 2>&1 &
"$PYTHON" models/train/train.py "${common[@]}" --run "/tmp/$NAME-$SUFFIX" $SECOND > "/tmp/$NAME-$SUFFIX.out" 2>&1 &
wait
for r in "$NAME" "$NAME-$SUFFIX"; do
  echo "== $r"; tail -12 "/tmp/$r.out"
  mkdir -p "$OUT/$r" && cp /tmp/$r/step-*.onnx "/tmp/$r/log.jsonl" "/tmp/$r/args.json" "$OUT/$r/"
done
