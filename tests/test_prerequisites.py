"""The suite on a machine without its prerequisites: each test that needs tmux, node and npm (or
the npm registry), chromium, or the Python package index (for the runtime venvs under the test
cache) skips with a one-line reason, and ``-q`` shows nothing but pytest's own lines.

Each case runs pytest in a subprocess on a few of the suite's own files, in an environment
where the prerequisite is really missing: PATH holds only a folder of chosen tools, the
registries point at a closed local port, and the test cache is empty.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: a closed port on this machine: every registry request is refused at once
NOWHERE = "http://127.0.0.1:9"
#: the lines pytest -q -rs writes itself
PYTEST_LINES = re.compile(
    r"[.sxXEF]+\s+\[\s*\d+%\]"  # progress
    r"|SKIPPED \[\d+\] \S+: .+"  # -rs: one line per skip reason
    r"|=+ short test summary info =+"
    r"|\d+ (passed|skipped|deselected|xfailed)(, \d+ (passed|skipped|deselected|xfailed))* in .+"
)


def run_pytest(tmp_path: Path, tools: list[str] | None, files: list[str], **env: str) -> list[str]:
    """``pytest -q -rs files`` with only ``tools`` on PATH (None: PATH as it is) and an empty
    test cache; the output lines (asserted to be pytest's own, without a traceback)."""
    path = os.environ.get("PATH", "/usr/bin:/bin")
    if tools is not None:
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir(exist_ok=True)
        for tool in tools:
            found = shutil.which(tool)
            if found is None:
                pytest.skip(f"this case needs {tool} to leave it on PATH")
            (bin_dir / tool).symlink_to(found)
        path = str(bin_dir)
    clean = {
        "PATH": path,
        "HOME": str(tmp_path / "home"),
        "LANG": "C.UTF-8",
        "FLOWCTX_TEST_CACHE": str(tmp_path / "cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-n", "0",
         *files],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Traceback" not in output and "Error" not in output, output
    strays = [line for line in lines if not PYTEST_LINES.fullmatch(line)]
    assert strays == [], output
    return lines


def skipped(lines: list[str]) -> str:
    return "\n".join(line for line in lines if line.startswith("SKIPPED"))


def test_without_node_tmux_and_chromium_the_tests_needing_them_skip_with_a_reason(
    tmp_path: Path,
) -> None:
    lines = run_pytest(
        tmp_path,
        [],
        [
            "tests/differential/test_mj_long_chains.py",
            "tests/core/test_routing_graph_mermaid.py",
            "tests/e2e/test_tmux_diff.py",
            "tests/e2e/test_serve_browser.py",
        ],
    )
    reasons = skipped(lines)
    assert (
        "the real MemberJunction evaluator is not available: node is not installed "
        "(.ci/run installs nodejs and npm when missing)" in reasons
    )
    assert "parsing with the real mermaid is not available: node is not installed" in reasons
    assert "tmux is not installed" in reasons
    assert "Debian's chromium is not installed" in reasons
    assert re.fullmatch(r"\d+ skipped in .+", lines[-1]), lines[-1]


def test_without_the_npm_registry_the_node_tests_skip_with_a_reason(tmp_path: Path) -> None:
    lines = run_pytest(
        tmp_path,
        ["node", "npm"],
        ["tests/differential/test_mj_long_chains.py"],
        npm_config_registry=NOWHERE,
        npm_config_cache=str(tmp_path / "npm-cache"),  # nothing cached to install from
        npm_config_fetch_retries="0",
        npm_config_update_notifier="false",
    )
    reasons = skipped(lines)
    assert (
        "the real MemberJunction evaluator is not available: npm could not install "
        "@memberjunction/global@5.51.3 (registry access?): " in reasons
    )
    assert len(reasons.splitlines()) == 1


def test_without_the_package_index_the_mozaiks_runtime_tests_skip_with_a_reason(
    tmp_path: Path,
) -> None:
    lines = run_pytest(
        tmp_path,
        [],
        ["tests/differential/test_mozaiks_differential.py"],
        PIP_CONFIG_FILE=os.devnull,  # no configured index or local wheels either
        PIP_INDEX_URL=f"{NOWHERE}/simple",
        PIP_RETRIES="0",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    reasons = skipped(lines)
    assert (
        "the published Mozaiks runtime is not available: pip could not install "
        "mozaiks==0.2.0 (index access?): " in reasons
    )


def test_without_the_package_index_the_pre_commit_hook_test_skips_with_a_reason(
    tmp_path: Path,
) -> None:
    lines = run_pytest(
        tmp_path,
        None,  # git and pre-commit there; only the index is not
        ["tests/e2e/test_precommit.py"],
        PIP_CONFIG_FILE=os.devnull,
        PIP_INDEX_URL=f"{NOWHERE}/simple",
        PIP_RETRIES="0",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    assert "pre-commit cannot install the hook without the package index: " in skipped(lines)
