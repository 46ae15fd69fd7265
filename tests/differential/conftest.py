from __future__ import annotations

import pytest

from tests.differential.mozaiks_oracle import MozaiksOracle, oracle_or_reason
from tests.differential.oracle import MjOracle, install, missing_tools


@pytest.fixture(scope="session")
def mj_oracle() -> MjOracle:
    reason = missing_tools()
    if reason is not None:
        pytest.skip(f"the real MemberJunction evaluator needs node: {reason}")
    return MjOracle(install())


@pytest.fixture(scope="session")
def mozaiks_oracle() -> MozaiksOracle:
    """The published Mozaiks runtime in its own venv (made on first use), or a skip."""
    oracle = oracle_or_reason()
    if isinstance(oracle, str):
        pytest.skip(f"the published Mozaiks runtime is not available: {oracle}")
    return oracle
