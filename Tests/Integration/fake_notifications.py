"""A small desktop notification service (org.freedesktop.Notifications) that counts what it is
shown, for kcauth's "no browser without a person" tests
(docs/commands.md "Who may open a browser").

Run inside a private bus with the system Python and python3-gi:

    dbus-run-session --config-file=BUS.conf -- python3 fake_notifications.py LOG

Every Notify call appends one line to LOG: `app_name<TAB>summary<TAB>body`. Prints
`READY <bus address>` once it owns the name; exits when stdin reaches EOF.
"""

import os
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

XML = """<node>
 <interface name="org.freedesktop.Notifications">
  <method name="Notify">
   <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
   <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
   <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
  </method>
  <method name="GetCapabilities"><arg type="as" direction="out"/></method>
  <method name="GetServerInformation">
   <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
  </method>
 </interface>
</node>"""


def main():
    log = sys.argv[1]
    loop = GLib.MainLoop()
    counter = [0]

    def call(connection, sender, path, interface, method, params, invocation):
        if method == "Notify":
            app, _, _, summary, body, _, _, _ = params.unpack()
            with open(log, "a") as f:
                f.write(f"{app}\t{summary}\t{body}\n")
            counter[0] += 1
            invocation.return_value(GLib.Variant("(u)", (counter[0],)))
        elif method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (["body"],)))
        else:
            invocation.return_value(GLib.Variant("(ssss)", ("fake", "kcauth-tests", "1", "1.2")))

    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    bus.register_object("/org/freedesktop/Notifications", node.interfaces[0], call, None, None)

    def acquired(*_):
        print("READY " + os.environ["DBUS_SESSION_BUS_ADDRESS"], flush=True)

    Gio.bus_own_name_on_connection(bus, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.NONE, acquired, None)
    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                      GLib.IOCondition.IN | GLib.IOCondition.HUP, lambda *_: (loop.quit(), False)[1])
    loop.run()


if __name__ == "__main__":
    main()
