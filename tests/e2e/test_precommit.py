"""End to end: the repository's ``flowctx-check`` hook, run by the real ``pre-commit`` in a
test git repository, on a real ``git commit``.

The hook's environment is installed by pre-commit as for any user: a virtualenv and a pip
install of this checkout with its dependencies (about a minute; once for the module). The
checkout is snapshotted first, uncommitted and new files included (as ``pre-commit try-repo``
does), so the hook tested is the one in the working tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.e2e

CHECKOUT = Path(__file__).resolve().parents[2]
#: a hang guard for the one slow step (the hook environment's pip install), not a speed test
INSTALL_GUARD_S = 900

BROKEN = "definitions:\n  x: {type: string, source: {type: config, env_vr: X}}\nagents: {}\n"
FIXED = "definitions:\n  x: {type: string, source: {type: config, env_var: X}}\n"
AGENTS = "agents:\n  A: {variables: [x]}\n"
#: what mozaiks 0.2.0 needs to discover workflow W and create its agent A
ORCHESTRATOR = (
    "schema_version: mozaiks.orchestrator.v1\nworkflow_name: {name}\n"
    "workflow_startup_mode: AgentDriven\n"
)
AGENTS_FILE = "agents:\n  - {name: A, system_message: Hi., structured_outputs_required: false}\n"


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(
        PRE_COMMIT_HOME=str(home),
        GIT_AUTHOR_NAME="flowctx test",
        GIT_AUTHOR_EMAIL="test@example.test",
        GIT_COMMITTER_NAME="flowctx test",
        GIT_COMMITTER_EMAIL="test@example.test",
        GIT_CONFIG_NOSYSTEM="1",
        NO_COLOR="1",
    )
    # the hook's output is read by the test: no colour codes in it
    env.pop("FORCE_COLOR", None)
    return env


def git(cwd: Path, *args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def snapshot_checkout(dest: Path, env: dict[str, str]) -> str:
    """A git repository holding this checkout's working tree as one commit; its sha."""
    files = git(CHECKOUT, "ls-files", "-z", "--cached", "--others", "--exclude-standard", env=env)
    git(dest.parent, "init", "-q", dest.name, env=env)
    for name in filter(None, files.split("\0")):
        source = CHECKOUT / name
        target = dest / name
        if source.is_symlink():  # flowctx_core -> core: the import name of the core package
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(source.readlink())
        elif source.is_file():  # a file deleted but not yet staged is listed too
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(dest, "add", "-A", env=env)
    git(dest, "commit", "-q", "-m", "snapshot", env=env)
    return git(dest, "rev-parse", "HEAD", env=env)


@dataclass
class Repo:
    path: Path
    env: dict[str, str]

    def write(self, rel: str, text: str) -> None:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    def commit(self, *files: str) -> subprocess.CompletedProcess[str]:
        """``git add`` these files and ``git commit``: the installed hook runs on them."""
        git(self.path, "add", *files, env=self.env)
        return subprocess.run(
            ["git", "commit", "-m", "change"],
            cwd=self.path,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=INSTALL_GUARD_S,
        )


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    base = tmp_path
    env = _env(base / "pre-commit-home")
    sha = snapshot_checkout(base / "flowctx", env)
    work = base / "project"
    git(base, "init", "-q", work.name, env=env)
    # the .pre-commit-config.yaml of docs/editors-ci.md, pointed at the snapshot
    config = {
        "repos": [{"repo": str(base / "flowctx"), "rev": sha, "hooks": [{"id": "flowctx-check"}]}]
    }
    (work / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    pre_commit = [sys.executable, "-m", "pre_commit"]
    subprocess.run([*pre_commit, "install"], cwd=work, env=env, check=True, capture_output=True)
    # the hook environment, installed the way every user's is
    installed = subprocess.run(
        [*pre_commit, "install-hooks"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=INSTALL_GUARD_S,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    made = Repo(work, env)
    made.write("README.md", "# a project with agent workflows\n")
    git(work, "add", ".pre-commit-config.yaml", "README.md", env=env)
    git(work, "commit", "-q", "-m", "start", "--no-verify", env=env)
    yield made


def test_the_hook_on_real_commits(repo: Repo) -> None:
    """One story, so the hook environment is installed once (and under xdist, on one worker)."""
    blocks_a_broken_contract_and_says_where(repo)
    lets_the_fixed_contract_through(repo)
    skips_files_that_are_not_workflow_files(repo)
    checks_the_files_of_two_workspaces_in_one_run(repo)


def blocks_a_broken_contract_and_says_where(repo: Repo) -> None:
    repo.write("agents/ws/workflows/W/context_variables.yaml", BROKEN)
    repo.write("agents/ws/workflows/W/orchestrator.yaml", ORCHESTRATOR.format(name="W"))
    repo.write("agents/ws/workflows/W/agents.yaml", AGENTS_FILE)
    done = repo.commit("agents")
    out = done.stdout + done.stderr  # git prints the hook's lines on standard error
    assert done.returncode == 1, out
    assert "flowctx check" in out and "Failed" in out
    # located in the workspace (agents/ws), with the fix in the message
    assert (
        "workflows/W/context_variables.yaml:2:44: definitions.x.source.env_vr: unknown field "
        "(did you mean 'env_var'?)" in out
    )
    assert "FAILED: 1 workflow(s), 1 error(s)" in out
    assert git(repo.path, "log", "--format=%s", env=repo.env).splitlines() == ["start"]


def lets_the_fixed_contract_through(repo: Repo) -> None:
    repo.write("agents/ws/workflows/W/context_variables.yaml", FIXED + AGENTS)
    done = repo.commit("agents")
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "flowctx check" in out and "Passed" in out


def skips_files_that_are_not_workflow_files(repo: Repo) -> None:
    repo.write("README.md", "# changed\n")
    repo.write("agents/ws/data/notes.txt", "not a workflow file\n")
    done = repo.commit("README.md", "agents/ws/data/notes.txt")
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "(no files to check)Skipped" in out


def checks_the_files_of_two_workspaces_in_one_run(repo: Repo) -> None:
    repo.write("agents/ws/workflows/W/flow.yaml", "steps: [{name: S, type: Prompt}]\n")
    repo.write("other/workflows/V/context_variables.yaml", FIXED + AGENTS)
    repo.write("other/workflows/V/orchestrator.yaml", "name: V\n")
    repo.write("other/flowctx.yaml", "runtime: spec\n")
    done = repo.commit("agents", "other")
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    lines = out.splitlines()
    headers = [line for line in lines if line.startswith("workspace ")]
    assert [Path(h.split(" ", 1)[1]).name for h in headers] == ["ws", "other"]
    assert "workflows/W/flow.yaml:1:1: steps: no starting step" in out
    # flowctx.yaml names the whole workspace, judged by the runtime it names
    assert any(line.startswith("ok: 1 workflow(s)") and "[runtime spec" in line for line in lines)
