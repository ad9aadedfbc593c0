"""The configuration: structure check, parameter resolution, the run list.

The structure is checked against ``config/schema/config.schema.yaml``; each run's
parameters are then checked against the parameter declarations (``experiment::param NAME TYPE
HELP``) of the Tcl script that will run them, so an unknown key, a wrong type or an
impossible value stops the workflow before any simulation, with one message naming the
key and what is allowed.

Parameters of a run, later ones winning: the paper's ``parameters`` (defaults with
provenance), the experiment's ``set``, the fidelity level's ``set``, the sweep point, and
``seed``.
"""

from __future__ import annotations

import ast
import itertools
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "config" / "schema" / "config.schema.yaml"
EXPERIMENTS = ROOT / "config" / "experiments"


def paper_keys(root: Path = ROOT) -> list[str]:
    """Every paper of the artifact: one per config/experiments/<paper>.yaml (sorted by key;
    :func:`papers` gives the report's order)."""
    return sorted(p.stem for p in (root / "config" / "experiments").glob("*.yaml"))


def papers(config: Mapping) -> list[str]:
    """The papers of a loaded config, in the report's order: ``papers`` when given, else
    every paper in the config by its ``order``."""
    listed = config.get("papers")
    if listed:
        return list(listed)
    found = [k for k, v in config.items() if isinstance(v, dict) and "experiments" in v]
    return sorted(found, key=lambda k: (config[k].get("order", 0), k))


class ConfigError(ValueError):
    """A configuration that must not run; the message names the key."""


@dataclass(frozen=True)
class TclParam:
    name: str
    type: tuple[str, ...]
    help: str


@dataclass(frozen=True)
class Run:
    paper: str
    experiment: str
    run_id: str
    point: dict = field(hash=False)
    seed: int = 1
    params: dict = field(hash=False, default_factory=dict)


def _path_text(path: list) -> str:
    return ".".join(str(p) for p in path) or "(top level)"


def check_structure(config: dict) -> None:
    """Validate against the JSON schema; raise ConfigError naming the first bad key."""
    # imported here: most analysis processes import this module for its errors and run
    # lists only, and jsonschema costs about 65 ms to import (one Akella search step: 0.47 s)
    import jsonschema

    schema = yaml.safe_load(SCHEMA.read_text())
    for paper in paper_keys():  # one property per paper (the schema cannot list files)
        schema["properties"][paper] = {"$ref": "#/$defs/paper"}
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: (len(e.path), list(e.path)))
    if not errors:
        return
    e = errors[0]
    where = _path_text(list(e.absolute_path))
    if e.validator == "additionalProperties":
        allowed = sorted(e.schema.get("properties", {}))
        extra = sorted(set(e.instance) - set(allowed)) if isinstance(e.instance, dict) else []
        hint = f"; allowed keys: {', '.join(allowed)}" if allowed else ""
        raise ConfigError(f"config: unknown key {', '.join(extra)} under '{where}'{hint}")
    if e.validator == "enum":
        raise ConfigError(
            f"config: '{where}' = {e.instance!r} is not allowed; allowed values: "
            + ", ".join(repr(v) for v in e.validator_value)
        )
    raise ConfigError(f"config: '{where}': {e.message}")


def tcl_script(paper: str, family: str) -> Path:
    return ROOT / "tcl" / paper / f"{family}.tcl"


_PARAM_RE = re.compile(r"^\s*experiment::param\s+(\S+)\s+(\{[^}]*\}|\S+)\s+(.*)$")
#: a library proc that declares a set of parameters (tcl/lib/queues.tcl), and a call of it
_SET_PROC_RE = re.compile(r"^proc\s+(experiment::\w+_params)\s+\{\}\s+\{\s*$")
_SET_CALL_RE = re.compile(r"^\s*(experiment::\w+_params)\s*$")


def _declared(lines: Iterable[str]) -> dict[str, TclParam]:
    out: dict[str, TclParam] = {}
    for line in lines:
        m = _PARAM_RE.match(line)
        if m:
            name, typ, hlp = m.groups()
            words = tuple(shlex.split(typ.strip("{}")))
            out[name] = TclParam(name, words, hlp.strip().strip('"{}'))
    return out


def _lib_parts() -> tuple[list[str], dict[str, list[str]]]:
    """The library's lines outside parameter-set procs (its own parameters: seed, out,
    ns_id) and each parameter-set proc's body (declared only for families that call it)."""
    plain: list[str] = []
    sets: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tcl" / "lib").glob("*.tcl")):
        body: list[str] | None = None
        for line in path.read_text().splitlines():
            m = _SET_PROC_RE.match(line)
            if m:
                body = sets.setdefault(m.group(1), [])
            elif body is not None and line.startswith("}"):
                body = None
            else:
                (plain if body is None else body).append(line)
    return plain, sets


@cache
def tcl_params(script: Path) -> dict[str, TclParam]:
    """The parameters a Tcl experiment declares, those of the parameter sets it calls
    (experiment::queue_params) and seed/out/ns_id of the library."""
    if not script.is_file():
        raise ConfigError(f"config: experiment script {script.relative_to(ROOT)} does not exist")
    plain, sets = _lib_parts()
    lines = script.read_text().splitlines()
    for line in lines:
        m = _SET_CALL_RE.match(line)
        if m:
            if m.group(1) not in sets:
                raise ConfigError(
                    f"config: {script.relative_to(ROOT)} calls {m.group(1)}, which no file of "
                    "tcl/lib defines"
                )
            plain = [*plain, *sets[m.group(1)]]
    return _declared([*plain, *lines])


def _type_ok(t: tuple[str, ...], v: object) -> tuple[bool, str]:
    kind = t[0]
    num = isinstance(v, (int, float)) and not isinstance(v, bool)
    integer = isinstance(v, int) and not isinstance(v, bool)
    checks = {
        "int": (integer, "an integer"),
        "posint": (integer and v > 0, "an integer > 0"),  # type: ignore[operator]
        "number": (num, "a number"),
        "nonneg": (num and v >= 0, "a number >= 0"),  # type: ignore[operator]
        "posnum": (num and v > 0, "a number > 0"),  # type: ignore[operator]
        "prob": (num and 0 <= v <= 1, "a number in [0, 1]"),  # type: ignore[operator]
        "bool": (isinstance(v, bool), "true or false"),
        "enum": (v in t[1:], "one of: " + ", ".join(t[1:])),
        "string": (isinstance(v, str), "a string"),
    }
    if kind not in checks:
        raise ConfigError(f"Tcl parameter type '{kind}' is unknown to analysis/config.py")
    return checks[kind]


# Limits between parameters: declared once, by experiment::limit lines in the experiment
# scripts (tcl/lib/args.tcl), which check them at run time; read here so that an impossible
# combination stops the workflow before any run. A limit's expression names parameters bare
# and uses only numbers, "strings", ( ), int(), + - * /, comparisons and && || !.
@dataclass(frozen=True)
class Limit:
    name: str
    expr: str  # as declared (Tcl expr syntax over bare parameter names)
    message: str  # with {parameter} fields

    def holds(self, params: Mapping[str, object]) -> bool:
        return bool(eval(_limit_code(self.expr), {"__builtins__": {}, "int": int}, {"p": params}))


_LIMIT_RE = re.compile(r"^\s*experiment::limit\s+(\S+)\s+\{(.*?)\}\s+\{(.*)\}\s*$")
_TOKEN_RE = re.compile(r'"[^"]*"|[A-Za-z_][A-Za-z0-9_]*|&&|\|\||!=|!|[^A-Za-z_"&|!]+')
_ALLOWED = (
    ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.BinOp,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Compare, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq,
    ast.NotEq, ast.Constant, ast.Subscript, ast.Name, ast.Load, ast.Call,
)  # fmt: skip


@cache
def _limit_code(expr: str) -> object:
    """A limit's expression as Python (parameters as p["name"]); ValueError for anything
    outside the limits' small language."""
    words = {"&&": " and ", "||": " or ", "!": " not ", "!=": "!="}
    out = []
    for tok in _TOKEN_RE.findall(expr):
        if tok in words:
            out.append(words[tok])
        elif re.match(r"[A-Za-z_]", tok) and tok != "int":
            out.append(f"p[{tok!r}]")
        else:
            out.append(tok)
    text = "".join(out)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ValueError(f"limit '{expr}': its syntax is not allowed") from None
    for node in ast.walk(tree):
        bad = not isinstance(node, _ALLOWED)
        bad = bad or (isinstance(node, ast.Call) and getattr(node.func, "id", "") != "int")
        bad = bad or (isinstance(node, ast.Name) and node.id not in ("p", "int"))
        if bad:
            raise ValueError(f"limit '{expr}': {type(node).__name__} is not allowed")
    return compile(tree, "<limit>", "eval")


@cache
def family_limits(script: Path) -> tuple[Limit, ...]:
    """The experiment::limit lines of one experiment script (a line may go on after a
    trailing backslash)."""
    text = script.read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        if "experiment::limit " in line and not line.lstrip().startswith(("#", "proc")):
            m = _LIMIT_RE.match(line)
            if not m:
                raise ConfigError(f"{script.relative_to(ROOT)}: unreadable limit: {line.strip()}")
            expr, message = (" ".join(g.split()) for g in m.group(2, 3))
            out.append(Limit(m.group(1), expr, message))
    return tuple(out)


def limits() -> dict[tuple[str, str], tuple[Limit, ...]]:
    """(paper, family) -> its limits, for every experiment script that declares any."""
    out = {}
    for script in sorted(ROOT.glob("tcl/*/*.tcl")):
        if script.parent.name in ("lib", "tests"):
            continue
        found = family_limits(script)
        if found:
            out[(script.parent.name, script.stem)] = found
    return out


def check_limits(paper: str, family: str, params: dict, where: str) -> None:
    """The limits between one run's parameters (:func:`family_limits`); raise ConfigError
    naming the first that fails, with the parameters' values."""
    for lim in family_limits(tcl_script(paper, family)):
        if not lim.holds(params):
            raise ConfigError(f"config: '{where}': " + lim.message.format(**params))


def check_params(
    paper: str,
    experiment: str,
    family: str,
    params: dict,
    origin: dict | None = None,
    keys: Iterable[str] | None = None,
) -> None:
    """Check one run's parameters against the Tcl declarations. ``origin`` maps a key to
    the config path its value came from, for the message. ``keys``: check only these
    parameters' names and types (the others equal a run's checked before), and the limits."""
    spec = tcl_params(tcl_script(paper, family))
    reserved = {"out", "ns_id"}
    if keys is not None:
        for k in keys:
            where = (origin or {}).get(k, f"{paper}.experiments.{experiment}")
            if k in reserved or k not in spec:
                return check_params(paper, experiment, family, params, origin)
            ok, want = _type_ok(spec[k].type, params[k])
            if not ok:
                raise ConfigError(f"config: '{where}' = {params[k]!r}: must be {want}")
        check_limits(paper, family, params, f"{paper}.experiments.{experiment}")
        return
    for k, v in params.items():
        where = (origin or {}).get(k, f"{paper}.experiments.{experiment}")
        if k in reserved:
            raise ConfigError(f"config: '{where}': '{k}' is set by the workflow, not the config")
        if k not in spec:
            raise ConfigError(
                f"config: unknown parameter '{k}' at '{where}' (known to "
                f"tcl/{paper}/{family}.tcl: {', '.join(sorted(set(spec) - reserved))})"
            )
        ok, want = _type_ok(spec[k].type, v)
        if not ok:
            raise ConfigError(f"config: '{where}' = {v!r}: must be {want}")
    missing = sorted(set(spec) - reserved - set(params))
    if missing:
        raise ConfigError(
            f"config: '{paper}.experiments.{experiment}': missing parameter(s) "
            + ", ".join(missing)
        )
    check_limits(paper, family, params, f"{paper}.experiments.{experiment}")


def run_id(point: dict, seed: int) -> str:
    parts = [f"{k}{v}" for k, v in point.items()]
    return "_".join([*parts, f"s{seed}"])


def runs(config: dict, paper: str, experiment: str, fidelity: str | None = None) -> list[Run]:
    """Every run of one experiment at a fidelity, parameters resolved and checked."""
    fid = fidelity or config["fidelity"]
    pconf = config[paper]
    exp = pconf["experiments"][experiment]
    level = exp["fidelity"][fid]
    e = f"{paper}.experiments.{experiment}"
    base = {k: p["value"] for k, p in pconf["parameters"].items()}
    origin = {k: f"{paper}.parameters.{k}" for k in base}
    for path, values in (
        (f"{e}.set", exp.get("set", {})),
        (f"{e}.fidelity.{fid}.set", level.get("set", {})),
    ):
        base.update(values)
        origin.update({k: f"{path}.{k}" for k in values})
    origin.update({k: f"{e}.fidelity.{fid}.sweep.{k}" for k in level.get("sweep", {})})
    spec = tcl_params(tcl_script(paper, exp["family"]))
    paper_defaults = set(pconf["parameters"])
    sweep = level.get("sweep", {})
    names = list(sweep)
    out = []
    for values in itertools.product(*(sweep[k] for k in names)):
        point = dict(zip(names, values, strict=True))
        for seed in level["seeds"]:
            # paper-wide defaults go to the families that declare them; the experiment's
            # own values, the sweep point and the seed are checked whatever they name
            params = {k: v for k, v in base.items() if k in spec or k not in paper_defaults}
            params.update(point)
            params["seed"] = seed
            # the experiment's own values are the same in every run: checked in the first;
            # then only the sweep point and the seed (and the limits between parameters)
            check_params(
                paper, experiment, exp["family"], params, origin, [*names, "seed"] if out else None
            )
            out.append(Run(paper, experiment, run_id(point, seed), point, seed, params))
    return out


def validate(config: dict) -> None:
    """Everything checkable before a run, for every fidelity level (not just the chosen one)."""
    check_structure(config)
    unknown = [p for p in config.get("papers") or [] if p not in paper_keys()]
    if unknown:
        raise ConfigError(
            f"config: papers lists '{unknown[0]}', which has no config/experiments/"
            f"{unknown[0]}.yaml (papers: {', '.join(paper_keys())})"
        )
    for paper in paper_keys():
        if paper not in config:
            continue
        families = {e["family"] for e in config[paper]["experiments"].values()}
        used = set().union(*(tcl_params(tcl_script(paper, f)) for f in families))
        for k, p in config[paper]["parameters"].items():
            if k not in used:
                raise ConfigError(
                    f"config: unknown parameter '{k}' in '{paper}.parameters' (no experiment "
                    f"script of {paper} declares it)"
                )
            # a default every experiment overrides is still checked
            for f in sorted(families):
                spec = tcl_params(tcl_script(paper, f))
                if k in spec:
                    ok, want = _type_ok(spec[k].type, p["value"])
                    if not ok:
                        raise ConfigError(
                            f"config: '{paper}.parameters.{k}' = {p['value']!r}: must be {want}"
                        )
        for experiment in config[paper]["experiments"]:
            for fid in ("smoke", "quick", "paper"):
                rs = runs(config, paper, experiment, fid)
                ids = [r.run_id for r in rs]
                if len(set(ids)) != len(ids):
                    raise ConfigError(f"config: '{paper}.experiments.{experiment}': duplicate runs")
        check_items(config, paper)


@dataclass(frozen=True)
class Item:
    """One figure, table or claims list of a paper (``<paper>.items``): the analysis step whose
    tables it draws, the experiments whose runs that step reads, the steps whose tables it
    reads and the config values (dotted paths under the paper) it is given."""

    paper: str
    name: str
    kind: str  # figure | table | claims | numbers
    title: str
    step: str
    experiments: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    rule: str = ""  # the paper's own rule that makes the step; "": the shared rules

    @property
    def theory(self) -> bool:
        """A step without runs or tables: the paper's model alone, no simulation."""
        return not self.experiments and not self.reads


def items(config: dict, paper: str) -> dict[str, Item]:
    """The paper's items in config order, each with its step's inputs."""
    return {
        name: Item(
            paper,
            name,
            d["kind"],
            d["title"],
            d.get("step", name),
            tuple(d.get("experiments", ())),
            tuple(d.get("reads", ())),
            tuple(d.get("params", ())),
            d.get("rule", ""),
        )
        for name, d in config[paper]["items"].items()
    }


def generated_dir(fidelity: str) -> str:
    """Where a fidelity's generated LaTeX, numbers and diff go."""
    return f"paper/generated/{fidelity}"


def figures_dir(fidelity: str) -> str:
    """Where a fidelity's figures go (``<paper>/<item>.pdf`` and ``.png`` under it)."""
    return f"figures/{fidelity}"


def report_pdf(fidelity: str) -> str:
    return f"paper/report-{fidelity}.pdf"


def item_files(it: Item, fidelity: str) -> list[str]:
    """The files the report includes for one item at one fidelity: its figure or table, the
    numbers file its step writes and, for the claims, the checks."""
    gen = generated_dir(fidelity)
    out: list[str] = []
    if it.kind == "figure":
        out += [
            f"{figures_dir(fidelity)}/{it.paper}/{it.name}.pdf",
            f"{gen}/{it.paper}/{it.name}.tex",
        ]
    elif it.kind == "table":
        out.append(f"{gen}/{it.paper}/{it.name}.tex")
    out.append(f"{gen}/{it.paper}/numbers-{it.step}.csv")
    if it.kind == "claims":
        out.append(f"{gen}/{it.paper}/claims-checks.csv")
    return out


def config_files(root: Path = Path(".")) -> list[Path]:
    """The config files, in the order Snakemake reads them (later keys win)."""
    experiments = sorted((root / "config" / "experiments").glob("*.yaml"))
    return [root / "config" / "config.yaml", *experiments]


def dotted(tree: dict, path: str, where: str) -> object:
    """The value at ``a.b.c`` under ``tree``; a ConfigError names ``where`` and the path."""
    node: object = tree
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            raise ConfigError(f"config: '{where}' names '{path}', which the config does not have")
        node = node[part]
    return node


def check_items(config: dict, paper: str) -> None:
    """Each item names experiments and steps that exist and config values that resolve, and
    items that share a step agree on what it reads."""
    its = items(config, paper)
    steps: dict[str, Item] = {}
    for it in its.values():
        where = f"{paper}.items.{it.name}"
        for e in it.experiments:
            if e not in config[paper]["experiments"]:
                raise ConfigError(f"config: '{where}.experiments' names '{e}', no experiment")
        for k in it.params:
            dotted(config[paper], k, f"{where}.params")
        first = steps.setdefault(it.step, it)
        if (first.experiments, first.reads) != (it.experiments, it.reads):
            raise ConfigError(
                f"config: '{where}' and '{paper}.items.{first.name}' share the step "
                f"'{it.step}' but list different experiments or reads"
            )
    for it in its.values():
        for s in it.reads:
            if s not in steps:
                raise ConfigError(
                    f"config: '{paper}.items.{it.name}.reads' names '{s}', the step of no item"
                )
    claims = [it.name for it in its.values() if it.kind == "claims"]
    if claims != ["claims"]:
        raise ConfigError(f"config: '{paper}.items' needs one item 'claims' of kind claims")


def assumed(config: dict, paper: str) -> list[tuple[str, object, str, str]]:
    """(name, value, status, reason) of every parameter the paper does not state."""
    return [
        (k, p["value"], p["status"], p.get("reason", ""))
        for k, p in config[paper]["parameters"].items()
        if p["status"] != "stated"
    ]


@dataclass(frozen=True)
class Override:
    """A value one experiment (or one fidelity level of it) runs with instead of the
    paper-wide default (or instead of the value at ``paper`` fidelity)."""

    experiment: str
    name: str
    default: object
    value: object
    where: str  # "experiment" or the fidelity level, e.g. "quick"


def overrides(config: dict, paper: str, fidelity: str) -> list[Override]:
    """Every per-experiment value that differs from the paper-wide default, and every value
    (and seed count) that the fidelity level ``fidelity`` changes against the ``paper``
    level, in config order."""
    pconf = config[paper]
    defaults = {k: p["value"] for k, p in pconf["parameters"].items()}
    out: list[Override] = []
    for name, exp in pconf["experiments"].items():
        own = dict(exp.get("set", {}))
        for k, v in own.items():
            if k not in defaults or defaults[k] != v:
                out.append(Override(name, k, defaults.get(k), v, "experiment"))
        if fidelity == "paper":
            continue
        ref, level = exp["fidelity"]["paper"], exp["fidelity"][fidelity]
        at_paper = {**defaults, **own, **ref.get("set", {})}
        for k, v in level.get("set", {}).items():
            if at_paper.get(k) != v:
                out.append(Override(name, k, at_paper.get(k), v, fidelity))
        if len(level["seeds"]) != len(ref["seeds"]):
            out.append(
                Override(
                    name, "seeds (runs per point)", len(ref["seeds"]), len(level["seeds"]), fidelity
                )
            )
        for k, values in level.get("sweep", {}).items():
            if values != ref.get("sweep", {}).get(k, values):
                out.append(Override(name, f"{k} (sweep)", ref["sweep"][k], values, fidelity))
    return out


def read_yaml(path: Path) -> object:
    """One YAML file; a syntax error names the file, line and column."""
    try:
        return yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{path}, line {mark.line + 1}, column {mark.column + 1}" if mark else f"{path}"
        problem = ", ".join(
            str(x) for x in (getattr(e, "context", None), getattr(e, "problem", None)) if x
        )
        raise ConfigError(f"config: {where}: not valid YAML: {problem or e}") from None


def load(paths: list[Path]) -> dict:
    """Merge YAML files (later keys win at the top level), as Snakemake's configfile does,
    then give each paper the parameter sets it names (:func:`add_parameter_sets`)."""
    config: dict = {}
    for p in paths:
        config.update(read_yaml(p) or {})  # type: ignore[arg-type]
    add_parameter_sets(config)
    return config


def add_parameter_sets(config: dict) -> None:
    """Copy each parameter set a paper names (``<paper>.parameter_sets``; the sets are defined
    once, in ``parameter_sets`` of config/config.yaml) into its ``parameters``, in place. A
    set's parameters are declared by a library proc its families call (tcl/lib/queues.tcl).
    ConfigError for an unknown set or a parameter the paper also defines."""
    sets = config.get("parameter_sets") or {}
    for paper in paper_keys():
        pconf = config.get(paper)
        if not isinstance(pconf, dict):
            continue
        for name in pconf.get("parameter_sets") or []:
            if name not in sets:
                raise ConfigError(
                    f"config: '{paper}.parameter_sets' names '{name}', which is not in "
                    f"parameter_sets (known: {', '.join(sorted(sets)) or 'none'})"
                )
            params = pconf.setdefault("parameters", {})
            for k, v in sets[name].items():
                if k in params and params[k] != v:
                    raise ConfigError(
                        f"config: '{paper}.parameters.{k}' is also in parameter set '{name}': "
                        "define it once"
                    )
                params[k] = v
