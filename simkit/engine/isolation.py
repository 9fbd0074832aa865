"""Isolated strategies: a plug-in strategy plays from a process of its own (`--isolate`).

Like a chess engine behind a protocol, the strategy's process receives only what its seat sees
and answers with an action; it holds no object of the game, so a cheat has nothing to change.
`IsolatedSpec` is the spec of such a seat: its `build()` gives an `Isolated` proxy, which the
game loop plays like any strategy. The proxy's process is started once per (strategy, seat)
in each process that plays games (every loky worker owns its own) and serves game after game.

The protocol, pickled messages over a pair of pipes (`multiprocessing.connection`):

    parent -> child   ("setup", spec, info, seat, generator)   child -> ("ok",) | ("error", text)
    parent -> child   ("act", observation, legal actions)
        child -> parent   ("sample", generator)   parent -> ("sample", state, generator)
        child -> parent   ("is_legal", action)    parent -> ("is_legal", bool)
        child -> ("action", action) | ("error", text)

A determinized sample is made in the parent from the real state by the game's `determinize`
with the seat's view and generator, exactly as `Decision.sample_state` does in process, and
the generator's state travels with each request: honest strategies draw the same numbers
isolated or not, so their results are identical. What the parent reads from the child goes
through an unpickler that builds only plain values, numpy scalars and classes of game packages
(an action), never calls anything else. A strategy's error, its process dying, or a message the
parent cannot read is that seat's forfeit (`IsolatedStrategyError`); a decision over
`--decision-timeout` is interrupted as in process and the child is replaced.
"""

from __future__ import annotations

import atexit
import io
import os
import pickle
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from simkit.engine.errors import ConfigError
from simkit.engine.game import Action, State
from simkit.engine.registry import get_game
from simkit.engine.seeding import generator_from_state, generator_state
from simkit.engine.strategy import Decision, GameInfo, Strategy, StrategySpec, load_class

#: the longest message the parent reads from a strategy's process
MAX_MESSAGE = 16 << 20
#: the longest error text of a strategy's process kept for the record
MAX_ERROR = 2000
#: how to isolate: nothing, plug-ins (a class from outside simkit and its built-in bots), or all
MODES = ("off", "plugins", "all")
#: top-level packages whose strategies are simkit's own (never isolated as plug-ins)
OWN_PACKAGES = ("simkit", "strategies")
CHILD_FLAG = "SIMKIT_ISOLATED_CHILD"


class IsolatedStrategyError(Exception):
    """An isolated strategy failed: its error, or its process died or spoke out of turn."""


def is_plugin(spec: StrategySpec) -> bool:
    """Whether `spec`'s class comes from outside simkit (a file, a module, an installed plug-in)."""
    module = load_class(spec.target, spec.path).__module__
    return module.partition(".")[0] not in OWN_PACKAGES


def isolated_specs(specs: tuple[StrategySpec, ...], mode: str) -> tuple[StrategySpec, ...]:
    """`specs` with the seats to isolate under `mode` wrapped in IsolatedSpec."""
    if mode not in MODES:
        raise ConfigError(f"isolate={mode!r} is not allowed: one of {', '.join(MODES)}")
    if mode == "off":
        return specs
    return tuple(IsolatedSpec(s.text, s.target, s.params, s.path, inner=s)
                 if mode == "all" or is_plugin(s) else s for s in specs)


@dataclass(frozen=True)
class IsolatedSpec(StrategySpec):
    """The spec of a seat played from a process of its own (same text and label as `inner`)."""

    inner: StrategySpec | None = None

    def build(self) -> Strategy:
        assert self.inner is not None
        return Isolated(self.inner)


class Isolated(Strategy):
    """The game loop's side of an isolated strategy: it forwards `setup` and each decision."""

    def __init__(self, inner: StrategySpec):
        self.inner = inner
        self.child: _Child | None = None

    def setup(self, info: GameInfo, seat: int, rng: np.random.Generator) -> None:
        super().setup(info, seat, rng)
        self.child = _child_for(self.inner, seat)
        self.child.setup(self.inner, info, seat, rng)

    def act(self, decision: Decision) -> Action:
        assert self.child is not None
        return self.child.decide(decision)


# -- the parent's side ----------------------------------------------------------------------

_SAFE_BUILTINS = frozenset({"set", "frozenset", "bytearray", "complex", "slice", "range"})
_SAFE_NUMPY = frozenset({("numpy.core.multiarray", "scalar"), ("numpy", "dtype"),
                         ("numpy.core.multiarray", "_reconstruct"), ("numpy", "ndarray")})


class _Reader(pickle.Unpickler):
    """Builds plain values, numpy scalars and arrays, and instances of game classes; refuses
    every other global a message names (it could call anything)."""

    def __init__(self, data: bytes, games: tuple[str, ...]):
        super().__init__(io.BytesIO(data))
        self.games = games

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _SAFE_BUILTINS or (module, name) in _SAFE_NUMPY:
            return super().find_class(module, name)
        if module.startswith(self.games):
            found = super().find_class(module, name)
            if isinstance(found, type) and not issubclass(found, BaseException):
                return found
        raise pickle.UnpicklingError(f"a message names {module}.{name}, which is not a value of the game")


class _Child:
    """One strategy process and its pipes."""

    def __init__(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        # the child imports what this process imports: the same simkit, the same plug-ins
        env = {**os.environ, CHILD_FLAG: "1", "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        code = "from simkit.engine.isolation import child_main; child_main()"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, str(to_child_r), str(from_child_w)],
            pass_fds=(to_child_r, from_child_w), env=env, stdin=subprocess.DEVNULL,
            stdout=sys.stderr.fileno() if _has_fileno(sys.stderr) else None)
        os.close(to_child_r)
        os.close(from_child_w)
        self.send_to = Connection(to_child_w, readable=False)
        self.read_from = Connection(from_child_r, writable=False)
        self.games: tuple[str, ...] = ("simkit.games.",)

    def _send(self, message: tuple) -> None:
        self.send_to.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    def _receive(self) -> tuple:
        try:
            data = self.read_from.recv_bytes(MAX_MESSAGE)
        except EOFError:
            raise IsolatedStrategyError(f"the strategy's process ended ({self._exit_text()})") from None
        except OSError as exc:
            raise IsolatedStrategyError(f"the strategy's process sent an unreadable message: {exc}") from None
        try:
            message = _Reader(data, self.games).load()
        except Exception as exc:
            raise IsolatedStrategyError(f"the strategy's process sent a message the game cannot read: "
                                        f"{_capped(str(exc))}") from None
        if not isinstance(message, tuple) or not message or not isinstance(message[0], str):
            raise IsolatedStrategyError("the strategy's process sent a malformed message")
        return message

    def _exit_text(self) -> str:
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "its pipe closed"
        return f"exit code {code}" if code >= 0 else f"killed by signal {-code}"

    def setup(self, spec: StrategySpec, info: GameInfo, seat: int, rng: np.random.Generator) -> None:
        self.games = _game_modules(info.game)
        with self._failing():
            self._send(("setup", spec, info, seat, generator_state(rng)))
            reply = self._receive()
            if reply[0] == "error" and len(reply) == 2 and isinstance(reply[1], str):
                raise StrategyRaised(_capped(reply[1]))
            if reply[0] != "ok":
                raise IsolatedStrategyError(f"the strategy's process answered {reply[0]!r} to setup")

    def decide(self, decision: Decision) -> Action:
        with self._failing():
            self._send(("act", decision.observation, decision.legal_actions))
            while True:
                reply = self._receive()
                kind = reply[0]
                if kind == "action" and len(reply) == 2:
                    return reply[1]
                if kind == "sample" and len(reply) == 2:
                    decision.rng.bit_generator.state = reply[1]
                    sample = decision.sample_state()
                    self.send_to.send_bytes(_dumps_sharing(
                        ("sample", sample, decision.rng.bit_generator.state), decision.rng))
                elif kind == "is_legal" and len(reply) == 2:
                    self._send(("is_legal", bool(decision.is_legal(reply[1]))))
                elif kind == "error" and len(reply) == 2 and isinstance(reply[1], str):
                    raise StrategyRaised(_capped(reply[1]))
                else:
                    raise IsolatedStrategyError(f"the strategy's process sent {kind!r} out of turn")

    def _failing(self) -> _Replacing:
        return _Replacing(self)

    def close(self) -> None:
        for conn in (self.send_to, self.read_from):
            try:
                conn.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class StrategyRaised(IsolatedStrategyError):
    """The strategy raised in its process (the text names its exception); the process is fine
    and serves on."""


class _Replacing:
    """Around an exchange with a child: unless the strategy itself raised (its process is
    fine), a failure or an interruption (a timeout, Ctrl-C) leaves the exchange half done, so
    the child is killed and a new one started for the next game."""

    def __init__(self, child: _Child):
        self.child = child

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> None:
        if exc is None or isinstance(exc, StrategyRaised):
            return
        _discard(self.child)


SEAT_GENERATOR = "seat generator"


class _SharingPickler(pickle.Pickler):
    """Pickles the seat's generator as a reference: a sample that keeps using it for its chance
    events (Trains' determinize does) uses the child's own generator, as it would in process."""

    def __init__(self, file: io.BytesIO, rng: np.random.Generator):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.rng = rng

    def persistent_id(self, obj: Any) -> str | None:
        return SEAT_GENERATOR if obj is self.rng else None


def _dumps_sharing(message: tuple, rng: np.random.Generator) -> bytes:
    buffer = io.BytesIO()
    _SharingPickler(buffer, rng).dump(message)
    return buffer.getvalue()


class _SharingUnpickler(pickle.Unpickler):
    def __init__(self, data: bytes, rng: np.random.Generator | None):
        super().__init__(io.BytesIO(data))
        self.rng = rng

    def persistent_load(self, pid: Any) -> Any:
        if pid != SEAT_GENERATOR or self.rng is None:
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self.rng


def _has_fileno(stream: Any) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return False
    return True


def _capped(text: str) -> str:
    return text if len(text) <= MAX_ERROR else text[:MAX_ERROR] + f"... ({len(text)} characters)"


def _game_modules(game: str) -> tuple[str, ...]:
    """Module prefixes whose classes a message may hold: the game packages."""
    home = get_game(game).new_state.__module__
    return ("simkit.games.", home)


_CHILDREN: dict[tuple[int, StrategySpec, int], _Child] = {}
_LOCK = threading.Lock()


def _child_for(spec: StrategySpec, seat: int) -> _Child:
    """This thread's process for `spec` in `seat`, started on first use (or after one died)."""
    key = (threading.get_ident(), spec, seat)
    with _LOCK:
        child = _CHILDREN.get(key)
        if child is not None and child.process.poll() is not None:
            _CHILDREN.pop(key)
            child.close()
            child = None
        if child is None:
            if not _CHILDREN:
                atexit.unregister(close_all)
                atexit.register(close_all)
            child = _CHILDREN[key] = _Child()
    return child


def _discard(child: _Child) -> None:
    with _LOCK:
        for key, known in list(_CHILDREN.items()):
            if known is child:
                del _CHILDREN[key]
    child.process.kill()
    child.close()


def close_all() -> None:
    """End every strategy process of this process (they also end when it exits)."""
    with _LOCK:
        children = list(_CHILDREN.values())
        _CHILDREN.clear()
    for child in children:
        child.close()


def running_children() -> int:
    """How many strategy processes this process has (for tests)."""
    return sum(1 for child in _CHILDREN.values() if child.process.poll() is None)


# -- the child's side -------------------------------------------------------------------------

class RemoteDecision:
    """A seat's view of a decision in an isolated strategy's process: the observation and legal
    actions as plain values; `is_legal` and `sample_state()` ask the parent."""

    __slots__ = ("seat", "rng", "observation", "legal_actions", "_ask")

    def __init__(self, seat: int, rng: np.random.Generator, observation: Any, legal: Any, ask: Any):
        self.seat = seat
        self.rng = rng
        self.observation = observation
        self.legal_actions = legal
        self._ask = ask

    def is_legal(self, action: Action) -> bool:
        return bool(self._ask(("is_legal", action))[1])

    def sample_state(self) -> State:
        reply = self._ask(("sample", self.rng.bit_generator.state))
        self.rng.bit_generator.state = reply[2]
        return reply[1]


def child_main() -> None:
    """The strategy process: serve setups and decisions until the parent closes the pipe."""
    read_fd, write_fd = int(sys.argv[1]), int(sys.argv[2])
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # the parent decides when this process ends
    os.dup2(2, 1)                                   # a strategy's prints never reach stdout
    sys.stdout = sys.stderr
    from simkit.engine.orphan_guard import exit_with_parent
    exit_with_parent(os.getppid())
    incoming = Connection(read_fd, writable=False)
    outgoing = Connection(write_fd, readable=False)

    def send(message: tuple) -> None:
        outgoing.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    def receive() -> tuple:
        return _SharingUnpickler(incoming.recv_bytes(), rng).load()

    def ask(message: tuple) -> tuple:
        send(message)
        reply = receive()
        if reply[0] != message[0]:
            raise IsolatedStrategyError(f"the game answered {reply[0]!r} to {message[0]!r}")
        return reply

    bot: Strategy | None = None
    rng: np.random.Generator | None = None
    seat = -1
    while True:
        try:
            message = receive()
        except (EOFError, OSError):
            return
        kind = message[0]
        try:
            if kind == "setup":
                spec, info, seat, snapshot = message[1:]
                bot = None
                rng = generator_from_state(snapshot)
                built = spec.build()
                built.setup(info, seat, rng)
                bot = built
                send(("ok",))
            elif kind == "act":
                if bot is None or rng is None:
                    raise IsolatedStrategyError("asked to act before a setup")
                remote = RemoteDecision(seat, rng, message[1], message[2], ask)
                action = bot.act(remote)  # type: ignore[arg-type]   # Decision's interface
                send(("action", action))
        except BaseException as exc:        # the strategy's failure, whatever it is, is its seat's
            try:
                send(("error", _capped(f"{type(exc).__name__}: {exc}")))
            except BaseException:
                os._exit(1)
