"""Make the Merry-Go-Round test helpers importable as ``mgr_helpers``."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
