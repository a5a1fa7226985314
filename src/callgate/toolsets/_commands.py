"""`run_command`: programs run without a shell, matched against an allowlist.

A command runs without asking only when its program and first arguments are those of an
allowlist entry (`git diff`) and none of the later arguments is an option that runs other
code, writes elsewhere or changes what the program reads (`git -c`, `pytest -p`,
`ruff --output-file`), nor a path outside the workspace. Everything else is held for a
person. Programs are looked up once, on a `PATH` without relative entries.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import shutil
import signal
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from callgate._errors import ToolError, UserError
from callgate.toolsets._workspace import Workspace

__all__ = ["Allowlist", "CommandRule", "CommandRunner"]

WRAPPERS = frozenset(
    {
        "env", "sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "sudo", "su", "doas",
        "xargs", "nohup", "nice", "ionice", "timeout", "time", "watch", "script", "busybox",
        "exec", "eval", "command", "builtin", "strace", "ltrace", "gdb", "chroot", "setsid",
        "unshare", "nsenter", "flock", "parallel", "stdbuf", "taskset", "ssh", "perl", "ruby",
        "node", "deno", "bun", "php", "lua", "pwsh", "powershell", "cmd", "awk", "gawk",
        "make", "npx", "uvx", "pipx",
    }
)  # fmt: skip
"""Programs that run another program or code given in their arguments: never allowlisted."""

REFUSED_OPTIONS: Mapping[str, frozenset[str]] = {
    "git": frozenset(
        {
            "-c", "--config-env", "-C", "--git-dir", "--work-tree", "--exec-path",
            "--namespace", "--super-prefix", "--output", "--ext-diff", "--textconv",
            "--upload-pack", "--receive-pack", "--open-files-in-pager", "-O", "--no-index",
        }
    ),
    "pytest": frozenset(
        {
            "-p", "-c", "--config-file", "--rootdir", "--basetemp", "--junitxml",
            "--junit-xml", "--confcutdir", "-o", "--override-ini", "--pyargs", "--debug",
            "--pastebin", "--pdb", "--pdbcls", "--trace", "--result-log", "--resultlog",
        }
    ),
    "ruff": frozenset(
        {
            "--fix", "--unsafe-fixes", "--fix-only", "--add-noqa", "--output-file", "-o",
            "--config", "--cache-dir", "--watch", "-w",
        }
    ),
    "find": frozenset(
        {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}
    ),
    "python": frozenset({"-c"}),
}  # fmt: skip
"""Options that run other code, write outside the workspace or swap the configuration."""

HARDENING: Mapping[str, tuple[str, ...]] = {
    "git": ("--no-pager", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"),
}
"""Arguments put before an allowlisted program's own: a repository's `core.fsmonitor` and
hooks would otherwise run programs on `git status`."""

_KEEP_ENV = ("PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TERM", "USER", "LOGNAME", "TMPDIR")
_SET_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "GIT_CONFIG_NOSYSTEM": "1",
    "NO_COLOR": "1",
}
_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_MAX_ARGS = 256


@dataclass(frozen=True, kw_only=True, slots=True)
class CommandRule:
    """One allowlist entry: a program and the arguments a command must start with."""

    program: str
    prefix: tuple[str, ...] = ()
    refused: frozenset[str] = frozenset()
    """Options refused after the prefix (the built-in ones for the program are added)."""

    def __post_init__(self) -> None:
        if not self.program or "/" in self.program or self.program != self.program.strip():
            raise UserError(f"allowlist: {self.program!r} must be a bare program name, not a path")
        base = self.program
        if base in WRAPPERS or (_PYTHON.match(base) and self.prefix[:1] != ("-m",)):
            raise UserError(
                f"allowlist: {self.text!r} would run any program or code; allow the program "
                "itself (for Python, `python -m MODULE`)"
            )
        if _PYTHON.match(base) and len(self.prefix) < 2:
            raise UserError(f"allowlist: {self.text!r} must name the module after -m")
        object.__setattr__(self, "refused", frozenset(self.refused) | _refused_for(self))

    @classmethod
    def parse(cls, spec: str | Sequence[str] | CommandRule) -> CommandRule:
        if isinstance(spec, CommandRule):
            return spec
        words = shlex.split(spec) if isinstance(spec, str) else list(spec)
        if not words or not all(isinstance(w, str) and w for w in words):
            raise UserError(f"allowlist: {spec!r} names no program")
        return cls(program=words[0], prefix=tuple(words[1:]))

    @property
    def text(self) -> str:
        return shlex.join([self.program, *self.prefix])

    @property
    def subject(self) -> str:
        """The program whose options apply: `pytest` for `python -m pytest`."""
        return self.prefix[1] if _PYTHON.match(self.program) else self.program


def _refused_for(rule: CommandRule) -> frozenset[str]:
    own = REFUSED_OPTIONS.get(rule.subject, frozenset())
    if _PYTHON.match(rule.program):
        own = own | REFUSED_OPTIONS["python"]
    return own


class Allowlist:
    """The commands `run_command` runs without asking, each program found once on `PATH`."""

    def __init__(self, entries: Iterable[str | Sequence[str] | CommandRule], workspace: Workspace):
        self.rules = tuple(CommandRule.parse(e) for e in entries)
        self.workspace = workspace
        self.path = _safe_path(os.environ.get("PATH", ""))
        self.programs = {r.program: shutil.which(r.program, path=self.path) for r in self.rules}

    def why_not(self, argv: Sequence[str]) -> tuple[CommandRule | None, str]:
        """The matching rule, or None and the reason no rule matches."""
        if not argv:
            return None, "the command is empty"
        program = argv[0]
        if "/" in program:
            return None, f"{program!r} is a path; allowlisted programs are named, not located"
        reasons = []
        for rule in self.rules:
            if rule.program != program or tuple(argv[1 : 1 + len(rule.prefix)]) != rule.prefix:
                continue
            problem = self._arguments(rule, argv[1 + len(rule.prefix) :])
            if problem is None:
                if self.programs.get(program) is None:
                    return None, f"{program!r} is allowlisted but not installed on PATH"
                return rule, f"`{rule.text}` is on the allowlist"
            reasons.append(problem)
        if reasons:
            return None, reasons[0]
        allowed = ", ".join(f"`{r.text}`" for r in self.rules) or "nothing"
        return None, f"`{shlex.join(argv[:3])}` is not on the allowlist ({allowed})"

    def _arguments(self, rule: CommandRule, rest: Sequence[str]) -> str | None:
        for arg in rest:
            option = _refused_option(rule, arg)
            if option is not None:
                return (
                    f"`{rule.text} {option}` is refused: it can run other code or write elsewhere"
                )
            for value in _path_candidates(arg):
                try:
                    self.workspace.locate(value)
                except ToolError:
                    return f"argument {arg!r} names a path outside the workspace"
        return None


def _refused_option(rule: CommandRule, arg: str) -> str | None:
    if not arg.startswith("-") or arg == "-":
        return None
    name = arg.split("=", 1)[0]
    if name in rule.refused:
        return name
    if arg.startswith("--"):
        # an unambiguous prefix is accepted by argparse and git (`--outp` for `--output`)
        long = [
            o for o in rule.refused if o.startswith("--") and len(name) > 3 and o.startswith(name)
        ]
        return long[0] if long else None
    shorts = {o for o in rule.refused if len(o) == 2 and o[0] == "-" and o[1] != "-"}
    # a cluster such as `-xp plugin`, or a value glued on, `-pplugin`
    return (
        next((o for o in sorted(shorts) if o[1] in arg[1:]), None)
        if rule.subject != "find"
        else None
    )


def _path_candidates(arg: str) -> list[str]:
    values = [arg]
    if arg.startswith("-") and "=" in arg:
        values = [arg.split("=", 1)[1]]
    return [v for v in values if v.startswith(("/", ".", "~")) or "/" in v]


def _safe_path(path: str) -> str:
    """`PATH` without empty or relative entries, which would find programs in the workspace."""
    return os.pathsep.join(p for p in path.split(os.pathsep) if p and os.path.isabs(p))


class CommandRunner:
    """Runs one command in the workspace root: no shell, a clean environment, a deadline,
    output cut to its first and last part."""

    def __init__(
        self,
        workspace: Workspace,
        allowlist: Allowlist,
        *,
        output_chars: int,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.workspace = workspace
        self.allowlist = allowlist
        self.output_chars = output_chars
        kept = {k: v for k, v in os.environ.items() if k in _KEEP_ENV or k.startswith("LC_")}
        kept["PATH"] = allowlist.path
        self.env = {**kept, **_SET_ENV, **(env or {})}

    async def run(self, argv: Sequence[str], seconds: float, rule: CommandRule | None) -> str:
        executable, arguments = self._resolve(argv, rule)
        capture = _Capture(self.output_chars)
        try:
            process = await asyncio.create_subprocess_exec(
                executable,
                *arguments,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                cwd=self.workspace.root,
                env=self.env,
                start_new_session=True,
            )
        except (OSError, ValueError) as exc:
            raise ToolError(f"cannot start {argv[0]!r}: {exc}") from None
        try:
            async with asyncio.timeout(seconds):
                assert process.stdout is not None
                while chunk := await process.stdout.read(65536):
                    capture.add(chunk)
                code = await process.wait()
        except TimeoutError:
            raise ToolError(
                f"`{shlex.join(argv)}` ran past its timeout of {seconds:g} s and was stopped.\n"
                + capture.text()
            ) from None
        finally:
            _stop(process)
            with contextlib.suppress(ProcessLookupError):
                await process.wait()
        return f"$ {shlex.join(argv)}\nexit code {code}\n{capture.text()}"

    def _resolve(self, argv: Sequence[str], rule: CommandRule | None) -> tuple[str, list[str]]:
        if rule is not None:
            found = self.allowlist.programs.get(rule.program)
            if found is None:
                raise ToolError(f"{rule.program!r} is not installed")
            return found, [*HARDENING.get(rule.subject, ()), *argv[1:]]
        program = argv[0]
        found = program if "/" in program else shutil.which(program, path=self.allowlist.path)
        if found is None:
            raise ToolError(f"{program!r} was not found on PATH")
        return found, list(argv[1:])


def check_argv(argv: object) -> list[str]:
    if not isinstance(argv, list) or not argv or len(argv) > _MAX_ARGS:
        raise ToolError(
            f"argv must be a list of 1 to {_MAX_ARGS} strings: the program, then its arguments"
        )
    if not all(isinstance(a, str) and "\x00" not in a for a in argv) or not argv[0]:
        raise ToolError("every argument must be a string without NUL characters")
    return list(argv)


def _stop(process: asyncio.subprocess.Process) -> None:
    """Kill the command and everything it started (its own process group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


class _Capture:
    """The first and the last part of a command's output, and how much there was."""

    def __init__(self, chars: int) -> None:
        self.half = max(chars // 2, 1)
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            del self.tail[: max(len(self.tail) - self.half, 0)]

    def text(self) -> str:
        head = self.head.decode("utf-8", "replace")
        if self.total <= len(self.head) + len(self.tail):
            return head + self.tail.decode("utf-8", "replace")
        tail = self.tail.decode("utf-8", "replace")
        cut = self.total - len(self.head) - len(self.tail)
        return f"{head}\n[... output cut: {cut} of {self.total} bytes not shown ...]\n{tail}"
