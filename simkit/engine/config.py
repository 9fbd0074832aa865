"""Validated, frozen game configurations and `--set field=value` overrides.

A game's Config is a frozen dataclass deriving from `GameConfig`; each field is declared with
`setting(...)`, which records its help text and allowed values. Construction validates every
field (type, range, choices) and then the game's own cross-field `check()`. Sections (nested
frozen dataclasses deriving from `ConfigSection`) give dotted names such as `movement.chooser`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from simkit.engine.errors import ConfigError, UnknownNameError, unknown_name

_MISSING = dataclasses.MISSING


def setting(default: Any = _MISSING, help: str = "", *, min: float | None = None,
            max: float | None = None, choices: tuple | None = None,
            default_factory: Any = _MISSING) -> Any:
    """Declare a config field with its help text and allowed values."""
    meta = {"help": help, "min": min, "max": max, "choices": choices}
    if default_factory is not _MISSING:
        return field(default_factory=default_factory, metadata=meta)
    return field(default=default, metadata=meta)


def _type_name(tp: Any) -> str:
    if isinstance(tp, type):
        return tp.__name__
    return str(tp).replace("typing.", "")


def _allowed_text(meta: typing.Mapping[str, Any], tp: Any) -> str:
    if meta.get("choices") is not None:
        return "one of " + ", ".join(repr(c) for c in meta["choices"])
    lo, hi = meta.get("min"), meta.get("max")
    base = _type_name(tp)
    if lo is not None and hi is not None:
        return f"{base} from {lo} to {hi}"
    if lo is not None:
        return f"{base} >= {lo}"
    if hi is not None:
        return f"{base} <= {hi}"
    return base


def _check_type(value: Any, tp: Any) -> bool:
    origin = typing.get_origin(tp)
    if tp is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_check_type(value, arg) for arg in typing.get_args(tp))
    if tp is type(None):
        return value is None
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if origin is tuple:
        return isinstance(value, tuple)
    if origin is dict:
        return isinstance(value, (dict, types.MappingProxyType))
    if isinstance(tp, type):
        return isinstance(value, tp)
    return True


class _Validated:
    """Shared field validation of GameConfig and ConfigSection."""

    def __post_init__(self) -> None:
        hints = typing.get_type_hints(type(self))
        for f in dataclasses.fields(self):  # type: ignore[arg-type]  # subclasses are dataclasses
            value = getattr(self, f.name)
            tp = hints[f.name]
            where = f"{type(self).__name__}.{f.name}"
            if not _check_type(value, tp):
                raise ConfigError(f"{f.name}={value!r} has the wrong type: allowed is "
                                  f"{_allowed_text(f.metadata, tp)} ({where})")
            choices = f.metadata.get("choices")
            if choices is not None and value not in choices:
                raise ConfigError(f"{f.name}={value!r} is not allowed: allowed is "
                                  f"{_allowed_text(f.metadata, tp)}")
            if isinstance(value, float) and not math.isfinite(value):
                raise ConfigError(f"{f.name}={value!r} is not allowed: a finite number "
                                  f"({_allowed_text(f.metadata, tp)})")
            lo, hi = f.metadata.get("min"), f.metadata.get("max")
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                if (lo is not None and value < lo) or (hi is not None and value > hi):
                    raise ConfigError(f"{f.name}={value!r} is out of range: allowed is "
                                      f"{_allowed_text(f.metadata, tp)}")
        self.check()

    def check(self) -> None:
        """Cross-field checks; raise ConfigError naming the fields and numbers."""


@dataclass(frozen=True)
class ConfigSection(_Validated):
    """A named group of settings inside a GameConfig (gives dotted names)."""


@dataclass(frozen=True)
class GameConfig(_Validated):
    """Base of every game's rule configuration."""

    def check_players(self, n_players: int) -> None:
        """Checks that depend on the player count (e.g. the deck must hold every hand)."""

    def to_dict(self) -> dict:
        return _to_plain(dataclasses.asdict(self))


def _to_plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class FieldInfo:
    name: str
    type_name: str
    default: Any
    help: str
    allowed: str


def describe_fields(config_cls: type, prefix: str = "") -> list[FieldInfo]:
    """Every settable field of a config class, sections flattened to dotted names."""
    hints = typing.get_type_hints(config_cls)
    defaults = config_cls()
    out: list[FieldInfo] = []
    for f in dataclasses.fields(config_cls):
        tp = hints[f.name]
        name = prefix + f.name
        if isinstance(tp, type) and issubclass(tp, ConfigSection):
            out.extend(describe_fields(tp, prefix=name + "."))
            continue
        out.append(FieldInfo(name, _type_name(tp), getattr(defaults, f.name),
                             f.metadata.get("help", ""), _allowed_text(f.metadata, tp)))
    return out


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def parse_value(text: str, tp: Any, name: str) -> Any:
    """Parse the text of `--set name=text` into a value of type `tp`."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _parse_union(text, tp, name)
    scalar = _SCALAR_PARSERS.get(tp)
    if scalar is not None:
        return scalar(text, name)
    if origin in (tuple, dict) or tp in (tuple, dict):
        return _parse_json(text, tp, name)
    raise ConfigError(f"{name}: values of type {_type_name(tp)} cannot be set from the command line")


def _parse_union(text: str, tp: Any, name: str) -> Any:
    """None for none/null/empty when the union allows it, else the first member type that parses."""
    args = typing.get_args(tp)
    if type(None) in args and text.strip().lower() in ("none", "null", ""):
        return None
    errors = []
    for arg in args:
        if arg is type(None):
            continue
        try:
            return parse_value(text, arg, name)
        except ConfigError as exc:
            errors.append(str(exc))
    raise ConfigError(errors[0] if errors else f"{name}: cannot parse {text!r}")


def _parse_bool(text: str, name: str) -> bool:
    low = text.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ConfigError(f"{name}={text!r} is not a boolean: allowed is true or false")


#: a whole number as typed: ASCII digits, `-` for a negative one (Python's int() would also take
#: `1_000`, `+4`, spaces around and other scripts' digits: refused, never reinterpreted)
_WHOLE = re.compile(r"-?[0-9]+")
#: a decimal number as typed: the same digits, an optional point and exponent
_DECIMAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
#: how a number must be written, for messages
NUMBER_FORM = "digits 0-9 with an optional leading -; no _, +, spaces or other scripts' digits"


def parse_whole(text: str, name: str) -> int:
    """`text` as a whole number in the one form simkit reads (see _WHOLE)."""
    if not _WHOLE.fullmatch(text):
        raise ConfigError(f"{name}={text!r} is not a whole number: {NUMBER_FORM}")
    return int(text)


def parse_decimal(text: str, name: str) -> float:
    """`text` as a finite number in the one form simkit reads (see _DECIMAL)."""
    if text.strip().lower() in ("nan", "-nan", "inf", "-inf", "infinity", "-infinity"):
        raise ConfigError(f"{name}={text!r} is not allowed: a finite number (not nan or inf)")
    if not _DECIMAL.fullmatch(text):
        raise ConfigError(f"{name}={text!r} is not a number: {NUMBER_FORM} (e.g. 0.5, 2e-3)")
    number = float(text)
    if not math.isfinite(number):
        raise ConfigError(f"{name}={text!r} is not allowed: a finite number (not nan or inf)")
    return number


def _parse_int(text: str, name: str) -> int:
    return parse_whole(text, name)


def _parse_float(text: str, name: str) -> float:
    return parse_decimal(text, name)


def _parse_str(text: str, name: str) -> str:
    return text


_SCALAR_PARSERS: dict[Any, typing.Callable[[str, str], Any]] = {
    bool: _parse_bool, int: _parse_int, float: _parse_float, str: _parse_str}


def _parse_json(text: str, tp: Any, name: str) -> Any:
    """A tuple or dict field: the text as JSON (a list or object), frozen to the field's type."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError:
        raise ConfigError(f"{name}={text!r} is not valid JSON (a list or object)") from None
    except ValueError as exc:
        raise ConfigError(f"{name}={text!r}: {exc}") from None
    return _freeze(value, tp, name)


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not allowed: numbers must be finite")


def _dict_key(key: Any, k_tp: Any, name: str) -> Any:
    if k_tp is not int:
        return key
    try:
        return int(key)
    except (TypeError, ValueError):
        raise ConfigError(f"{name}: key {key!r} is not allowed: the keys are whole numbers") from None


def _freeze(value: Any, tp: Any, name: str = "config") -> Any:
    origin = typing.get_origin(tp)
    if origin is tuple and isinstance(value, list):
        args = typing.get_args(tp)
        inner = args[0] if args else Any
        return tuple(_freeze(v, inner, name) for v in value)
    if origin is dict and isinstance(value, dict):
        k_tp, v_tp = (typing.get_args(tp) or (Any, Any))
        return {_dict_key(k, k_tp, name): _freeze(v, v_tp, name) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_freeze(v, Any, name) for v in value)
    return value


def with_overrides(config: Any, overrides: dict[str, Any], prefix: str = "") -> Any:
    """A new config with dotted-name overrides applied; text values are parsed by field type
    (`prefix` is the section's dotted name, for messages)."""
    grouped: dict[str, dict[str, Any]] = {}
    direct: dict[str, Any] = {}
    cls = type(config)
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(config)}
    for key, value in overrides.items():
        head, _, rest = key.partition(".")
        if head not in names:
            raise unknown_name("config field", key, [fi.name for fi in describe_fields(cls)])
        tp = hints[head]
        is_section = isinstance(tp, type) and issubclass(tp, ConfigSection)
        if rest:
            if not is_section:
                raise UnknownNameError(f"unknown config field {key!r}: {head} has no sub-fields")
            grouped.setdefault(head, {})[rest] = value
        else:
            if is_section:
                raise ConfigError(f"{key} is a section: set one of its fields, e.g. {key}.<name>=...")
            direct[head] = parse_value(value, tp, prefix + key) if isinstance(value, str) else value
    for head, sub in grouped.items():
        try:
            direct[head] = with_overrides(getattr(config, head), sub, f"{prefix}{head}.")
        except UnknownNameError as exc:
            message = str(exc).replace("unknown config field '", f"unknown config field '{head}.")
            raise UnknownNameError(message) from None
    try:
        return dataclasses.replace(config, **direct)
    except TypeError as exc:
        raise ConfigError(str(exc)) from None


def parse_set_options(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Turn `("rows=5", "movement.chooser=owner")` into a dict, rejecting malformed items.
    Spaces around a field name and its value are ignored (`' rows = 5'` is rows=5, as
    documented in docs/reliability.md); the value itself is read by the field's type."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()              # spaces around the name and the value are ignored
        if not sep or not name:
            raise ConfigError(f"--set {item!r} is malformed: use --set field=value")
        if name in out:
            raise ConfigError(f"--set {name} is given twice ({out[name]!r} and {value.strip()!r}): "
                              f"give each field once")
        out[name] = value.strip()
    return out


def config_from_dict(config_cls: type, data: dict) -> Any:
    """Rebuild a config from `to_dict()` output (e.g. a run manifest)."""
    hints = typing.get_type_hints(config_cls)
    kwargs = {}
    for f in dataclasses.fields(config_cls):
        if f.name not in data:
            continue
        tp = hints[f.name]
        value = data[f.name]
        if isinstance(tp, type) and issubclass(tp, ConfigSection):
            kwargs[f.name] = config_from_dict(tp, value)
        else:
            kwargs[f.name] = _freeze(value, tp)
    return config_cls(**kwargs)
