"""SFT training on exported trajectories: TRL's SFTTrainer with PEFT LoRA or full fine-tuning."""

from .config import ConfigError, TrainConfig, load_config, parse_config
from .sft import TrainResult, decide_packing, latest_checkpoint, merge_adapter, train

__all__ = ["ConfigError", "TrainConfig", "TrainResult", "decide_packing", "latest_checkpoint", "load_config",
           "merge_adapter", "parse_config", "train"]
