"""The ablation: direct against iterative training from one store, benched alike, in one report.

Above ``train`` and ``bench``, below ``cli``: it exports, trains and benches through their
libraries and adds only the matching, the budget and the comparison."""

from .config import AblateConfig, AblateError, Arm, load_config, parse_config
from .run import AblationResult, run_ablation
from .stats import Problem, bootstrap

__all__ = ["AblateConfig", "AblateError", "AblationResult", "Arm", "Problem", "bootstrap", "load_config",
           "parse_config", "run_ablation"]
