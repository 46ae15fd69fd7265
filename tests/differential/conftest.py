from __future__ import annotations

import pytest

from tests.differential.oracle import MjOracle, install, missing_tools


@pytest.fixture(scope="session")
def mj_oracle() -> MjOracle:
    reason = missing_tools()
    if reason is not None:
        pytest.skip(f"the real MemberJunction evaluator needs node: {reason}")
    return MjOracle(install())
