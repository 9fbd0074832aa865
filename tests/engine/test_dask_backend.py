"""dask.distributed's logs during a run: shown while it runs, silent once it stops (a Ctrl-C under
`--backend dask` prints one line, docs/reliability.md). The end-to-end check is
tests/reliability/test_last_tracebacks.py::test_ctrl_c_under_dask_prints_one_line; the race it
guards against (a gather cancelled mid-flight logs "Couldn't gather keys") is rare there, so the
gate itself is checked here, on every path that closes it."""

from __future__ import annotations

import io
import logging
import os
import signal
import socket
import time
import warnings

import pytest

from simkit.engine.dask_backend import dask_client, quiet_once_stopping
from simkit.engine.termination import Terminated, sigterm_as_interrupt


@pytest.fixture
def stderr_of_distributed():
    """A handler on the `distributed` logger, as dask's logging config installs one on stderr."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("distributed")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _log(text: str) -> None:
    logging.getLogger("distributed.scheduler").error(text)


def test_a_ctrl_c_silences_the_logs_from_the_moment_it_arrives(stderr_of_distributed):
    before = signal.getsignal(signal.SIGINT)
    with quiet_once_stopping():
        _log("while running")
        with pytest.raises(KeyboardInterrupt):      # the handler already installed still raises
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)                           # the handler runs before this ends
        _log("Couldn't gather keys")
    _log("after the run")
    assert stderr_of_distributed.getvalue().splitlines() == ["while running", "after the run"]
    assert signal.getsignal(signal.SIGINT) is before


def test_a_sigterm_silences_them_and_still_stops_the_run(stderr_of_distributed):
    with sigterm_as_interrupt():
        with quiet_once_stopping():
            with pytest.raises(Terminated):
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)
            _log("a worker stopped mid-task")
    assert stderr_of_distributed.getvalue() == ""


def test_closing_the_gate_silences_them_and_leaving_opens_them_again(stderr_of_distributed):
    with quiet_once_stopping() as logs:
        _log("while running")
        logs.close()
        _log("closing the client")
    _log("later")
    assert stderr_of_distributed.getvalue().splitlines() == ["while running", "later"]


def test_dask_records_reaching_the_root_handlers_are_silenced_and_no_others(monkeypatch):
    stream = io.StringIO()
    root_handler = logging.StreamHandler(stream)
    monkeypatch.setattr(logging.getLogger("distributed"), "propagate", True)
    logging.getLogger().addHandler(root_handler)
    try:
        with quiet_once_stopping() as logs:
            logs.close()
            _log("closing the client")
            logging.getLogger("simkit.elsewhere").error("not dask's")
    finally:
        logging.getLogger().removeHandler(root_handler)
    assert stream.getvalue().splitlines() == ["not dask's"]


def test_a_local_cluster_takes_a_free_port_without_a_warning():
    pytest.importorskip("dask.distributed")
    with socket.socket() as busy:
        try:                        # as another run's cluster holds it
            busy.bind(("127.0.0.1", 8787))
            busy.listen()
        except OSError:
            pass                    # something else holds it already: the same case
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            client = dask_client(None)
            try:
                http = client.cluster.scheduler.http_server
                host, port = http.address, http.port
            finally:
                client.close()
    assert [str(w.message) for w in seen if "in use" in str(w.message)] == []
    assert host == "127.0.0.1" and port != 8787
