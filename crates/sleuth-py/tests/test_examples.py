"""The examples of examples/python run end to end (small budgets)."""

import os
import subprocess
import sys


def run(repo, tmp_path, script, *args):
    env = dict(os.environ, MPLBACKEND="Agg")
    out = subprocess.run(
        [sys.executable, str(repo / "examples" / "python" / script), *args, "--out", str(tmp_path / "figure.png")],
        capture_output=True, text=True, env=env, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "figure.png").stat().st_size > 10_000
    return out.stdout


def test_table1(repo, tmp_path):
    out = run(repo, tmp_path, "table1.py", "--iterations", "5000", "--seeds", "2")
    assert "6798 consistent deals (exact)" in out
    assert "(c) Algorithm 1" in out and "(d) Algorithm 2" in out and "RMSD" in out


def test_sampler_bias(repo, tmp_path):
    out = run(repo, tmp_path, "sampler_bias.py", "--games", "3", "--budget", "2000")
    assert "RMSD over open cells" in out and "uniform" in out and "alg2" in out
