"""The loopback listener of `kcauth login` under attack from other local processes (issue 10,
defects 4 and 5): the built binary, the real test provider, the scripted user as $BROWSER and a
real gnome-keyring, as in test_login.py."""

import socket
import threading
import time

from kcauth import stored_items


def login_args(provider, *extra, client_id="kcauth"):
    return ("login", "--issuer", provider.issuer, "--client-id", client_id, "--timeout", "30", *extra)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect_when_listening(port, deadline):
    """A connection to 127.0.0.1:port, retried until kcauth listens there."""
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class JunkConnections(threading.Thread):
    """Opens `count` connections to the listener that never send a byte (and `partial` that send
    half a request head and stop), and keeps them open until stop()."""

    def __init__(self, port, count, partial=0):
        super().__init__(daemon=True)
        self.port, self.count, self.partial = port, count, partial
        self.sockets, self.opened, self.error = [], threading.Event(), None
        self._release = threading.Event()

    def run(self):
        try:
            deadline = time.monotonic() + 20
            for index in range(self.count + self.partial):
                s = connect_when_listening(self.port, deadline)
                if index < self.partial:
                    s.sendall(b"GET /callback?state=")
                self.sockets.append(s)
        except OSError as exc:
            self.error = exc
        finally:
            self.opened.set()
        self._release.wait(60)
        for s in self.sockets:
            s.close()

    def stop(self):
        self._release.set()
        self.join(10)


def test_the_callback_is_served_while_hundreds_of_idle_connections_are_open(provider, keyring, kcauth, scripted_browser_env):
    # Before: the listener kept every silent connection forever and refused new ones beyond 32,
    # so the browser's redirect was closed unanswered and the login timed out.
    port = free_port()
    junk = JunkConnections(port, count=300, partial=20)
    junk.start()
    try:
        # The scripted user starts once the junk is in place (it is opened within a second).
        r = kcauth(*login_args(provider, "--port", str(port)), env={"SCRIPTED_DELAY": "2"})
    finally:
        junk.stop()
    assert junk.error is None and len(junk.sockets) == 320, junk.error
    assert r.returncode == 0, r
    result = scripted_browser_env.wait_result()
    assert result["ok"], result["error"]
    assert result["callback_status"] == 200 and "You are signed in as <strong>alice</strong>" in result["callback_body"]
    assert [item["profile"] for item in stored_items(keyring)] == ["default"]
