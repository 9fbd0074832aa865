"""What a new user tripped over (issue 24): joblib's warning after an early SPRT stop, no
"did you mean" for a mistyped name, progress without a rate, and deals reused across player counts."""

import subprocess
import sys


def test_an_early_sprt_stop_prints_no_joblib_warning(tmp_path):
    # a subprocess: its stderr is what the user sees, outside pytest's own capture of warnings
    proc = subprocess.run([sys.executable, "-m", "simkit", "compare", "sixnimmt", "heuristic", "random",
                           "-p", "4", "--seed", "3", "--jobs", "2", "--sprt", "0,300,0.2,0.2", "--batch", "8",
                           "--out", str(tmp_path / "c")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "stopped early" in proc.stdout
    assert "tasks" not in proc.stderr and "Warning" not in proc.stderr
