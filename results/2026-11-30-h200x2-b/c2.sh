source scratch/env.sh
date -u
(CUDA_VISIBLE_DEVICES=0 timeout 540 python3 benchmarks/kernelbench_baselines.py --levels 1,2,3 --warm 8 --chunk 12 --budget-s 420 --out .kmc/baselines > .kmc/logs/baselines2.log 2>&1; echo "baselines rc $?" >> .kmc/logs/baselines2.log) &
(CUDA_VISIBLE_DEVICES=1 timeout 540 python3 benchmarks/tasks_gpu_filter.py --out .kmc/filter2 --resume .kmc/filter/results.jsonl --n 5000 --seed 2026 --names tasksets/mosaic-v1-pool/candidates.txt --fingerprint af50761bca90939e --budget-s 480 > .kmc/logs/filter2.log 2>&1; echo "filter rc $?" >> .kmc/logs/filter2.log) &
wait
date -u
tail -3 .kmc/logs/filter2.log; tail -4 .kmc/logs/baselines2.log
tar czf $OUT/c2.tgz .kmc/logs .kmc/baselines .kmc/filter2 2>&1 | tail -2
