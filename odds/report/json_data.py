"""Data made ready for JSON, which has no NaN (a standard error of a single shoe is one)."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["nan_as_none"]


def nan_as_none(value: Any) -> Any:
    """``value`` with every NaN float, in dicts and lists at any depth, as None.

    >>> nan_as_none({"se": float("nan"), "ci": [1.5, float("nan")]})
    {'se': None, 'ci': [1.5, None]}
    """
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: nan_as_none(v) for k, v in value.items()}
    if isinstance(value, list):
        return [nan_as_none(v) for v in value]
    return value
