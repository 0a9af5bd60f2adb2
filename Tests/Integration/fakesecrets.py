"""A private session bus whose Secret Service is fake_secret_service.py: a locked login collection
that unlocks through a prompt object (complete, dismiss, or never answer).

    with FakeSecretSession(tmp_path, prompt="complete") as fake:
        kc = Kcauth(tmp_path, fake.env)          # DISPLAY=:99: kcauth believes a prompter exists
        r = kc("token")
        fake.events()                            # ["Unlock", "Prompt", "Completed dismissed=false", ...]
        fake.lock()                              # Service.Lock, as a screen locker would

No X server is needed: only the Secret Service "shows" the prompt. The service runs under the
system Python (python3-gi from Debian, see scripts/install-deps); the bus has no activatable
services, so nothing else can answer for org.freedesktop.secrets. Stopped by PID, temp dir removed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Optional

from keyring import _BARE_BUS_CONFIG, _short_tempdir, _terminate, base_env

SERVICE = Path(__file__).resolve().parent / "fake_secret_service.py"
SYSTEM_PYTHON = "/usr/bin/python3"
FAKE_DISPLAY = ":99"


def missing() -> Optional[str]:
    """Why the fake cannot run here, or None."""
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import gi; gi.require_version('Gio', '2.0')"],
                           capture_output=True, text=True)
    return None if probe.returncode == 0 else f"the fake Secret Service needs python3-gi: {probe.stderr.strip()}"


class FakeSecretSession:
    def __init__(self, tmp_path: Path, *, prompt: str = "complete", start_timeout: float = 15.0) -> None:
        self.dir = _short_tempdir("kc-fake-")
        self.event_log = self.dir / "events"
        self.event_log.touch()
        config = self.dir / "bare-bus.conf"
        config.write_text(_BARE_BUS_CONFIG.format(dir=self.dir))
        self._log = open(self.dir / "session.log", "wb")
        self._base_env = base_env(XDG_RUNTIME_DIR=str(self.dir), XDG_DATA_HOME=str(Path(tmp_path) / "fake-data"))
        self._proc = subprocess.Popen(
            ["dbus-run-session", f"--config-file={config}", "--", SYSTEM_PYTHON, str(SERVICE), str(self.event_log), prompt],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, env=self._base_env,
            start_new_session=True,
        )
        try:
            line = self._readline(start_timeout)
            if not line.startswith("READY "):
                raise RuntimeError(f"fake Secret Service did not start: {line!r} {self.log()}")
            self.address = line[len("READY "):]
        except BaseException:
            self.stop()
            raise

    @property
    def env(self) -> dict[str, str]:
        return {**self._base_env, "DBUS_SESSION_BUS_ADDRESS": self.address, "DISPLAY": FAKE_DISPLAY}

    def events(self) -> list[str]:
        return self.event_log.read_text().splitlines()

    def lock(self) -> None:
        """Locks the collection again through the Secret Service API (Service.Lock)."""
        subprocess.run(
            ["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
             "org.freedesktop.Secret.Service.Lock", "array:objpath:/org/freedesktop/secrets/collection/login"],
            env=self.env, check=True, capture_output=True, timeout=10,
        )

    def log(self) -> str:
        try:
            return (self.dir / "session.log").read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        if self._proc.stdin and not self._proc.stdin.closed:
            self._proc.stdin.close()  # EOF: the service quits, dbus-run-session ends the bus
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _terminate(self._proc.pid)
            self._proc.wait(timeout=5)
        if self._proc.stdout:
            self._proc.stdout.close()
        self._log.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "FakeSecretSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _readline(self, timeout: float) -> str:
        import selectors

        selector = selectors.DefaultSelector()
        selector.register(self._proc.stdout, selectors.EVENT_READ)
        try:
            if not selector.select(timeout):
                raise RuntimeError(f"fake Secret Service not ready within {timeout} s: {self.log()}")
            return self._proc.stdout.readline().decode().strip()
        finally:
            selector.close()
