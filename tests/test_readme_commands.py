"""Every command the README and docs/ show is run, on a copy of the project.

Each ```sh (or ```bash) fenced block of README.md and docs/*.md holds commands, one a line
(``\\`` joins lines; ``# ...`` is a comment). A block meant to be read, not run, says so
(```text); a fence with no language fails, so no block is left out by accident. The commands
run in a project copy with the venv first on PATH and no extra flags, as a reader types them:

* ``snakemake ...`` as a dry run (``-n`` added; ``--unlock`` as it is), through the default
  profile: so ``snakemake diff`` and friends must work without ``--cores``;
* ``make TARGET ...`` as ``make -n``: the target must exist;
* ``python -m MODULE ...``, ``bench/X ...``, ``scripts/X ...``: as they are when they only ask
  for ``--help`` or ``--print``; else their ``--help`` runs and must list every flag the
  command uses; a shell script without --help is parsed (``bash -n``) instead;
* ``source FILE``: the file must exist.

So a documented target, rule, module or flag that the code no longer has fails here
(``test_a_removed_flag_fails``).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import make_project_copy

ROOT = Path(__file__).resolve().parent.parent
RUN = ("sh", "bash")
FENCE = re.compile(r"^```(\S*)\s*$")
FLAG = re.compile(r"(?<![\w-])--[A-Za-z][A-Za-z0-9-]*")
#: what a copy needs beyond tests.conftest.PROJECT_FILES to run the documented commands
EXTRA_FILES = ("Makefile", "bench", "tests", "requirements.txt", "environment.yml")


@dataclass(frozen=True)
class Command:
    where: str  # file:line
    text: str


def documents(root: Path = ROOT) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def commands(path: Path, root: Path = ROOT) -> list[Command]:
    """The commands of the file's shell blocks; ValueError on a fence with no language."""
    found: list[Command] = []
    lang: str | None = None
    pending = ""
    rel = path.relative_to(root)
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = FENCE.match(line)
        if m and lang is None:
            if not m.group(1):
                raise ValueError(f"{rel}:{n}: a fence without a language (```sh or ```text)")
            lang = m.group(1)
            continue
        if m:
            lang = None
            continue
        if lang not in RUN:
            continue
        text = re.sub(r"(^|\s)#.*$", "", line).strip()
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        text = (pending + text).strip()
        pending = ""
        if text:
            found.append(Command(f"{rel}:{n}", text))
    return found


def all_commands(root: Path = ROOT) -> list[Command]:
    return [c for doc in documents(root) for c in commands(doc, root)]


def _help_prefix(words: list[str]) -> list[str]:
    """The program part of a command: ``python -m M``, or the script."""
    return words[:3] if words[:2] == ["python", "-m"] else words[:1]


def plan(cmd: str) -> tuple[str, list[str], set[str]]:
    """(how, argv to run, flags its output must list) for one documented command."""
    words = shlex.split(cmd)
    prog = words[0]
    if prog == "source":
        return "exists", words[1:2], set()
    if prog == "snakemake":
        if "--unlock" in words or "--help" in words:
            return "run", words, set()
        dry = [] if "-n" in words or "--dry-run" in words else ["-n"]
        return "run", ["snakemake", *dry, *words[1:]], set()
    if prog == "make":
        return "run", ["make", "-n", *words[1:]], set()
    if prog == "python" or prog.startswith(("bench/", "scripts/")):
        if "--help" in words or "--print" in words:
            return "run", words, set()
        if prog.endswith(".sh") and "--help" not in Path(prog).name:
            return "parse", ["bash", "-n", prog], set()
        return "run", [*_help_prefix(words), "--help"], set(FLAG.findall(cmd))
    raise ValueError(f"no rule to test '{cmd}': add one to tests/test_readme_commands.py")


def check(cmd: str, copy: Path, timeout: float = 900) -> str | None:
    """None if the documented command works in the copy, else why not."""
    how, argv, flags = plan(cmd)
    if how == "exists":
        return None if (copy / argv[0]).exists() else f"{argv[0]} does not exist"
    env = {**os.environ, "PATH": f"{copy / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    try:
        done = subprocess.run(
            argv, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return f"{shlex.join(argv)} did not finish in {timeout:.0f} s"
    if done.returncode != 0:
        return (
            f"{shlex.join(argv)} exited {done.returncode}: {(done.stderr or done.stdout)[-3000:]}"
        )
    missing = sorted(f for f in flags if f not in set(FLAG.findall(done.stdout)))
    if missing:
        return f"{shlex.join(argv)} does not list {', '.join(missing)}"
    return None


def copy_for_commands(root: Path, w: Path) -> Path:
    copy = make_project_copy(root, w, report=True)
    for name in EXTRA_FILES:
        src = root / name
        if src.is_dir():
            shutil.copytree(src, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.is_file():
            shutil.copy2(src, copy / name)
    (copy / ".venv").symlink_to(root / ".venv")
    return copy


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_for_commands(ROOT, tmp_path_factory.mktemp("readme") / "w")


COMMANDS = all_commands()
#: documented commands known to fail, with why; strict, so the test says when one is fixed
KNOWN_FAILURES: dict[str, str] = {}
PARAMS = [
    pytest.param(
        c,
        id=c.where,
        marks=[pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[c.text])]
        if c.text in KNOWN_FAILURES
        else [],
    )
    for c in COMMANDS
]


def test_the_readme_shows_the_essentials_early() -> None:
    """The two commands, a one-figure rebuild, a parameter change and the diff are within
    the README's first 100 lines."""
    head = "\n".join((ROOT / "README.md").read_text().splitlines()[:100])
    for needed in ("make ", "make test", "figures/quick/", "Change a parameter", "snakemake diff"):
        assert needed in head, needed


def test_every_command_has_a_rule() -> None:
    assert len(COMMANDS) > 10
    for c in COMMANDS:
        plan(c.text)  # raises on a command the test would not know how to run


@pytest.mark.workflow
@pytest.mark.parametrize("command", PARAMS)
def test_documented_command_works(command: Command, copy: Path) -> None:
    # a known failure may hang: give it a few minutes only
    error = check(command.text, copy, timeout=180 if command.text in KNOWN_FAILURES else 900)
    assert error is None, f"{command.where}: {command.text}: {error}"


def test_a_fence_without_language_fails(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("```\nmake\n```\n")
    with pytest.raises(ValueError, match="without a language"):
        commands(tmp_path / "README.md", tmp_path)


@pytest.mark.workflow
def test_a_removed_flag_fails(tmp_path: Path) -> None:
    """The documented commands fail once the code loses what they use: compare's --quiet,
    the Makefile's diff target, the rule diff."""
    copy = copy_for_commands(ROOT, tmp_path / "w")
    used = {c.text for c in COMMANDS}
    quiet = (
        '    ap.add_argument("--quiet", action="store_true", '
        'help="no console table, only the counts")\n'
    )
    cases = [  # (documented command, file, [(old, new), ...] that removes what it uses)
        (
            "python -m analysis.compare --numbers paper/generated/quick --quiet",
            "analysis/compare.py",
            [(quiet, "")],
        ),
        ("make diff", "Makefile", [("diff: setup\n", "gone: setup\n"), ("report diff", "report")]),
        ("snakemake diff", "rules/report.smk", [("rule diff:\n", "rule gone:\n")]),
    ]
    for cmd, file, edits in cases:
        assert cmd in used, cmd
        assert check(cmd, copy) is None, cmd
        path = copy / file
        text = new = path.read_text()
        for old, repl in edits:
            assert old in new, old
            new = new.replace(old, repl, 1)
        path.write_text(new)
        assert check(cmd, copy) is not None, f"{cmd} still works after {edits}"
        path.write_text(text)
