"""``./ardoise test`` and the browser tests' Chromium (issue 30): the script's own functions, run by
``sh`` with stand-ins for ``apt-get``, ``id`` and ``sudo`` on ``PATH`` (nothing is installed) and
``/usr/bin/chromium`` replaced by a path of the test's. Chromium missing and the machine allowing
it: Debian's ``chromium`` and ``chromium-driver`` installed quietly, without questions or
recommended packages; not allowed: one line, and the browser tests skipped without pytest saying
it again; ``ARDOISE_TEST_BROWSER=require`` (CI): the run stops."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="no POSIX shell")


def functions(chromium: Path) -> str:
    """The script's functions (from ``say`` to the command's dispatch), its Chromium moved."""
    script = (ROOT / "ardoise").read_text(encoding="utf-8")
    start = script.index("say() {")
    end = script.index('\ncmd="${1:-help}"')
    return script[start:end].replace("/usr/bin/chromium", str(chromium))


def stand_ins(folder: Path, *, uid: int, installs: Path | None) -> Path:
    """``apt-get`` writing what it was asked (and, with ``installs``, "installing" Chromium
    there), ``id -u`` answering ``uid``, no ``sudo``."""
    bin_ = folder / "bin"
    bin_.mkdir()
    log = folder / "apt.log"
    install = ""
    if installs is not None:
        install = (f'case "$*" in *install*) printf "#!/bin/sh\\necho Chromium 1\\n" > {installs}; '
                   f"chmod +x {installs};; esac\n")
    (bin_ / "apt-get").write_text(
        f'#!/bin/sh\necho "DEBIAN_FRONTEND=$DEBIAN_FRONTEND apt-get $*" >> {log}\n{install}')
    (bin_ / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    (bin_ / "sudo").write_text("#!/bin/sh\nexit 1\n")  # no sudo without a password
    for tool in bin_.iterdir():
        tool.chmod(0o755)
    return log


def run(folder: Path, chromium: Path, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    body = functions(chromium) + '\nbrowser_setup\necho "TB=${ARDOISE_TEST_BROWSER:-unset}"\n'
    environment = {"PATH": f"{folder / 'bin'}:/usr/bin:/bin", "HOME": str(folder),
                   **(env or {})}
    return subprocess.run(["sh", "-c", body], capture_output=True, text=True, timeout=30,
                          env=environment, cwd=folder)


def test_chromium_missing_is_installed_with_apt_get_as_root(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    log = stand_ins(tmp_path, uid=0, installs=chromium)
    done = run(tmp_path, chromium)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "ardoise test: Chromium is not installed: apt-get install chromium chromium-driver…"]
    assert log.read_text().splitlines() == [
        "DEBIAN_FRONTEND=noninteractive apt-get update -qq",
        "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "
        "chromium chromium-driver"]
    assert done.stdout.strip() == "TB=unset"  # the browser tests run


def test_where_it_cannot_be_installed_one_line_says_so_and_the_tests_skip(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    log = stand_ins(tmp_path, uid=1000, installs=None)
    done = run(tmp_path, chromium)
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "ardoise test: Chromium is not installed and cannot be installed here (apt-get as root or "
        "sudo): the browser tests are skipped."]
    assert not log.exists()
    assert done.stdout.strip() == "TB=0"  # pytest skips them without a line of its own


def test_ci_requires_the_browser_tests(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    stand_ins(tmp_path, uid=1000, installs=None)
    done = run(tmp_path, chromium, {"ARDOISE_TEST_BROWSER": "require"})
    assert done.returncode == 1
    assert "ARDOISE_TEST_BROWSER=require, so the run stops" in done.stderr
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'ARDOISE_TEST_BROWSER="${ARDOISE_TEST_BROWSER:-require}"' in ci
    assert "exec ./ardoise test" in ci


def test_chromium_there_is_left_alone(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\necho Chromium 1\n")
    chromium.chmod(0o755)
    log = stand_ins(tmp_path, uid=0, installs=None)
    done = run(tmp_path, chromium)
    assert (done.returncode, done.stderr, done.stdout.strip()) == (0, "", "TB=unset")
    assert not log.exists()


def test_a_chromium_that_does_not_start_skips_the_tests(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\nexit 1\n")  # as Ubuntu's stub of a snap in a container
    chromium.chmod(0o755)
    stand_ins(tmp_path, uid=0, installs=None)
    done = run(tmp_path, chromium)
    assert "does not start" in done.stderr and len(done.stderr.splitlines()) == 1
    assert done.stdout.strip() == "TB=0"


@pytest.mark.skipif(os.environ.get("ARDOISE_TEST_BROWSER") == "require",
                    reason="CI requires the browser tests: they never skip there")
def test_pytest_says_a_browser_skip_once(tmp_path: Path) -> None:
    # Two browser tests without Chromium: one line in pytest's summary, not one a test.
    # No Chromium on PATH (and none named): as on a machine without it.
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}
    env.pop("ARDOISE_TEST_BROWSER", None)
    env.pop("ARDOISE_CHROMIUM", None)
    env["ARDOISE_TEST_DATABASE_URL"] = ""  # one run of each test, on SQLite
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/test_web_browser_pages.py", "-k", "fits_a_phone or in_french"],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    lines = [line for line in done.stdout.splitlines() if "browser test" in line]
    assert lines == ["2 browser tests skipped: Chromium is not installed (apt-get install "
                     "chromium chromium-driver; ./ardoise test does it where it may)"], done.stdout
