set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD KERNELBENCH_DIR=$PWD/.kb KMOSAIC_CACHE_DIR=$PWD/.kmc TORCHINDUCTOR_CACHE_DIR=$PWD/.kmc/inductor TORCHINDUCTOR_COMPILE_THREADS=4
mkdir -p .kmc/logs .kmc/bl; cp -n .carry/bl/baselines.jsonl .kmc/bl/
L=.kmc/logs
{ date -u; nvidia-smi -L; timeout 120 python3 -m pip install -q --no-deps --no-index .carry/whl/*.whl 2>&1 | tail -3; python3 -c "import trl,datasets,openai,pyarrow,pandas;print(trl.__version__,datasets.__version__,openai.__version__,pyarrow.__version__,pandas.__version__)"; } > $L/setup.log 2>&1
RI='{"model_type":"qwen3","hidden_size":2048,"intermediate_size":6144,"num_hidden_layers":28,"num_attention_heads":16,"num_key_value_heads":8,"head_dim":128,"max_position_embeddings":8192,"tie_word_embeddings":false}'
{ date -u; timeout 270 python3 -m accelerate.commands.launch --config_file configs/accelerate/fsdp.yaml --num_processes 2 -m kernelmosaic.cli train configs/train/tiny-qwen-cpu.yaml --set data.path=$PWD/.carry/data --set output_dir=$PWD/.kmc/fsdp --set lora=null --set merge=false --set sft.use_cpu=false --set sft.bf16=true --set model.dtype=bfloat16 --set sft.max_steps=20 --set sft.report_to=none --set "model.random_init=$RI"; echo "fsdp rc $?"; date -u; nvidia-smi --query-gpu=index,memory.used --format=csv; timeout 90 python3 .carry/fsdp_check.py .kmc/fsdp; echo "check rc $?"; } > $L/fsdp.log 2>&1
tail -50 $L/fsdp.log
B=$((560 - SECONDS)); echo "baselines budget $B s"
timeout $((B + 30)) python3 benchmarks/kernelbench_baselines.py --levels 1,2,3 --warm 10 --chunk 30 --budget-s $B --out .kmc/bl > $L/bl1.log 2>&1; echo "bl rc $?" >> $L/bl1.log
tail -8 $L/bl1.log; date -u
cp .kmc/bl/baselines.jsonl .kmc/bl/summary.json $OUT/; tar czf $OUT/c1.tgz $L .kmc/bl .kmc/fsdp/train_summary.json .kmc/fsdp/*.log 2>/dev/null; ls -la $OUT
