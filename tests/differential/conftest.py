from __future__ import annotations

import pytest

from tests.differential import oracle
from tests.differential.mj_flow_oracle import FlowOracle
from tests.differential.mj_flow_oracle import oracle_or_reason as flow_oracle_or_reason
from tests.differential.mozaiks_oracle import MozaiksOracle, oracle_or_reason


@pytest.fixture(scope="session")
def mj_oracle() -> oracle.MjOracle:
    """MemberJunction's evaluator under node (installed on first use), or a one-line skip."""
    found = oracle.oracle_or_reason()
    if isinstance(found, str):
        pytest.skip(f"the real MemberJunction evaluator is not available: {found}")
    return found


@pytest.fixture(scope="session")
def mozaiks_oracle() -> MozaiksOracle:
    """The published Mozaiks runtime in its own venv (made on first use), or a skip."""
    found = oracle_or_reason()
    if isinstance(found, str):
        pytest.skip(f"the published Mozaiks runtime is not available: {found}")
    return found


@pytest.fixture(scope="session")
def mj_flow_oracle() -> FlowOracle:
    """The real FlowAgentType (ai-agents 5.51.3) under node, installed on first use, or a skip."""
    found = flow_oracle_or_reason()
    if isinstance(found, str):
        pytest.skip(f"the real MemberJunction FlowAgentType is not available: {found}")
    return found
