source scratch/env.sh
date -u; nvidia-smi -L; nproc
python3 -c "import trl" 2>/dev/null || python3 -m pip install -q --no-deps --no-index wheels/*.whl 2>&1 | tail -3
python3 -c "import trl, datasets, liger_kernel; print('trl', trl.__version__, 'datasets', datasets.__version__)"
(CUDA_VISIBLE_DEVICES=0 timeout 555 python3 benchmarks/kernelbench_baselines.py --levels 1,2,3 --warm 6 --chunk 24 --budget-s 500 --out .kmc/baselines > .kmc/logs/baselines1.log 2>&1; echo "baselines rc $?" >> .kmc/logs/baselines1.log) &
(CUDA_VISIBLE_DEVICES=1 timeout 290 python3 benchmarks/tasks_gpu_filter.py --out .kmc/filter --n 5000 --seed 2026 --names tasksets/mosaic-v1-pool/candidates.txt --fingerprint af50761bca90939e --budget-s 255 > .kmc/logs/filter1.log 2>&1; echo "filter rc $?" >> .kmc/logs/filter1.log
 date -u >> .kmc/logs/train1.log
 CUDA_VISIBLE_DEVICES=1 timeout 265 python3 benchmarks/train_throughput.py --out .kmc/train --steps 10 --warmup 3 --budget-s 30 >> .kmc/logs/train1.log 2>&1; echo "train rc $?" >> .kmc/logs/train1.log) &
wait
date -u
tail -3 .kmc/logs/filter1.log; tail -4 .kmc/logs/baselines1.log; grep '^{' .kmc/logs/train1.log
tar czf $OUT/c1.tgz --exclude='_trainer_*' .kmc/logs .kmc/baselines .kmc/filter .kmc/train 2>&1 | tail -2
ls -la $OUT
