source scratch/env.sh
date -u
python3 -c "import openai" 2>/dev/null || python3 -m pip install -q --no-index --find-links .wheels openai 2>&1 | tail -2
timeout 320 python3 benchmarks/bench_scripted.py --out .kmc/bench > .kmc/logs/bench.log 2>&1; echo "bench rc $?" >> .kmc/logs/bench.log
tail -5 .kmc/logs/bench.log
date -u
timeout 230 python3 benchmarks/train_throughput.py --out .kmc/ddp --ddp 2 --ddp-mode tuned_compile --steps 8 --warmup 3 --budget-s 25 > .kmc/logs/ddp.log 2>&1; echo "ddp rc $?" >> .kmc/logs/ddp.log
grep '^{\|efficiency\|rc ' .kmc/logs/ddp.log
date -u
tar czf $OUT/c3.tgz --exclude='_trainer_*' .kmc/logs .kmc/bench .kmc/ddp 2>&1 | tail -2
