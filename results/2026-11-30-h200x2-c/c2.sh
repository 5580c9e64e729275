set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD KMOSAIC_CACHE_DIR=$PWD/.kmc
mkdir -p .kmc/logs; L=.kmc/logs
{ date -u; nvidia-smi -L; python3 -c "import trl" 2>/dev/null || timeout 120 python3 -m pip install -q --no-deps --no-index .carry/whl/*.whl 2>&1 | tail -3; python3 -c "import trl,datasets,torch,accelerate;print(trl.__version__,datasets.__version__,torch.__version__,accelerate.__version__)"; } > $L/setup2.log 2>&1
cat $L/setup2.log
RI='{"model_type":"qwen3","hidden_size":2048,"intermediate_size":6144,"num_hidden_layers":28,"num_attention_heads":16,"num_key_value_heads":8,"head_dim":128,"max_position_embeddings":8192,"tie_word_embeddings":false}'
rm -rf .kmc/fsdp
{ date -u; timeout 300 python3 -m accelerate.commands.launch --config_file configs/accelerate/fsdp.yaml --num_processes 2 -m kernelmosaic.cli train configs/train/tiny-qwen-cpu.yaml --set data.path=$PWD/.carry/data --set output_dir=$PWD/.kmc/fsdp --set lora=null --set merge=false --set sft.use_cpu=false --set sft.bf16=true --set model.dtype=bfloat16 --set sft.max_steps=20 --set sft.report_to=none --set "model.random_init=$RI"; echo "fsdp rc $?"; date -u; timeout 120 python3 .carry/fsdp_check.py .kmc/fsdp; echo "check rc $?"; } > $L/fsdp2.log 2>&1
grep -v "^\s*$" $L/fsdp2.log | grep -E "rc |\{|Error|FSDP2|tensors|params|shapes|generate|files|loss|distributed|world" | cut -c1-400 | tail -40
{ date -u; timeout 300 python3 -m pytest -q -m gpu tests/test_train.py -k "fsdp or varlen" -p no:cacheprovider; echo "pytest rc $?"; date -u; } > $L/pytest2.log 2>&1
tail -15 $L/pytest2.log
tar czf $OUT/c2.tgz $L .kmc/fsdp/train_summary.json .kmc/fsdp/checkpoint-20/trainer_state.json .kmc/fsdp/final/config.json 2>/dev/null; ls -la $OUT
