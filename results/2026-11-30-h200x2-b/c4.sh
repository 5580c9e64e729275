source scratch/env.sh
date -u; nvidia-smi -L
timeout 395 python3 benchmarks/tasks_gpu_filter.py --out .kmc/filter3 --n 5000 --seed 2026 --names scratch/remeasure.txt --fingerprint af50761bca90939e --budget-s 365 > .kmc/logs/filter3.log 2>&1; echo "filter rc $?" >> .kmc/logs/filter3.log
date -u; tail -3 .kmc/logs/filter3.log
tar czf $OUT/c4.tgz .kmc/logs/filter3.log .kmc/filter3 2>&1 | tail -2
