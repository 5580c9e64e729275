#!/usr/bin/env bash
# One pilot call on the GPU machine (benchmarks/pilot.py says how the pilot runs):
#   bash benchmarks/pilot_gpu.sh ROOT STEP...      STEP: baselines | round | kbjudge | probe | profiles | found
# State travels as two tar files in $OUT: the pilot folder, and the small files of the cache
# (baselines, ceilings, vendor kernel tables), which the next call carries in as .pilot-cache.
set -u
root=$1; shift
export KERNELBENCH_DIR=$PWD/.kb KMOSAIC_CACHE_DIR=$PWD/.pilot-cache PYTHONPATH=$PWD PYTHONUNBUFFERED=1
pip install -q --no-deps --no-index .wheels/*.whl 2>&1 | tail -1
mkdir -p "$KMOSAIC_CACHE_DIR"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -n "$(ls "$KMOSAIC_CACHE_DIR"/build/vendor-kernels/ 2>/dev/null)" ] || timeout 90 python -m kernelmosaic.verify.libs --warm "$KMOSAIC_CACHE_DIR/build" | tail -3
for step in "$@"; do
  t0=$(date +%s)
  case $step in
    baselines) timeout "${BASELINES_S:-240}" python benchmarks/pilot.py baselines --root "$root" --warm-lanes 14 --limit "${BASELINES_LIMIT:-1000}" ;;
    probe) timeout "${PROBE_S:-150}" python benchmarks/profiler_probe.py | tee "$OUT/profiler_probe.txt" ;;
    # the profiler as an optimize prompt runs it, on the episode folders in PROFILE_FOLDERS
    profiles) timeout "${PROFILES_S:-240}" python benchmarks/profiler_probe.py --kernels ${PROFILE_FOLDERS} | tee "$OUT/profiles.txt" ;;
    round) timeout "${ROUND_S:-480}" python benchmarks/pilot.py round --root "$root" --deadline-s "${DEADLINE_S:-400}" --lanes-per-gpu "${LANES:-1}" ;;
    # KB_AGAIN=L1/47_...,L1/20_... KB_WHY="...": judge those again, superseding their recorded verdicts
    kbjudge) timeout "${KBJUDGE_S:-400}" python benchmarks/pilot.py kbjudge --root "$root" --lanes-per-gpu "${KB_LANES:-${LANES:-1}}" \
        ${KB_AGAIN:+--again "$KB_AGAIN" --why "${KB_WHY:-}"} ;;
    found) timeout "${FOUND_S:-120}" python benchmarks/gold_check.py --found-only --out "$OUT/found.jsonl" | tail -3 ;;
  esac
  echo "step $step: rc=$? in $(( $(date +%s) - t0 )) s"
  # after every step: a call cut off by its time limit still brings back what the steps before reached
  tar czf "$OUT/pilot.tgz" "$root"
  # the built libraries, not the object files they were linked from: what travels back must fit
  # the device tool's 64 MiB beside the working tree
  find .pilot-cache -path .pilot-cache/build/objects -prune -o -type f -size -8M -print > /tmp/cachelist; tar czf "$OUT/cache.tgz" -T /tmp/cachelist
done
ls -la "$OUT"
