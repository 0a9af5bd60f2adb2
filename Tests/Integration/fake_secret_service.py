"""A small Secret Service (org.freedesktop.secrets) whose login collection starts locked and whose
Unlock goes through a prompt object, for kcauth's "locked keyring on a desktop" tests.
gnome-keyring cannot be used for this: its prompt needs a real prompter (gcr-prompter on an
X display), and cancelling a pending one makes it abort (shared notes, Secret Service §3 c3).

Implements just what libsecret's unlock, lookup, store, search and clear use, per the freedesktop
Secret Service API: Service (OpenSession "plain" only, ReadAlias, SearchItems, Unlock, Lock,
GetSecrets), Collection (CreateItem, SearchItems, properties), Item (GetSecret, Delete,
properties), Prompt (Prompt, Dismiss, signal Completed).

Run inside a private bus (see fakesecrets.py), with the system Python and python3-gi:

    python3 fake_secret_service.py EVENT_LOG PROMPT_MODE

PROMPT_MODE: `complete` (Completed(false, [collection]) after 0.3 s), `dismiss`
(Completed(true, [])), `never` (no Completed). Every call of interest is appended to EVENT_LOG,
one word a line (Unlock, Prompt, Dismiss, Lock, CreateItem, GetSecrets, Delete), so a test can
tell whether kcauth asked for a prompt at all. Prints `READY <bus address>` once it owns the name;
exits when stdin reaches EOF.
"""

import os
import sys
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

BASE = "/org/freedesktop/secrets"
COLLECTION = BASE + "/collection/login"
ALIAS = BASE + "/aliases/default"
SESSION = BASE + "/session/s1"
PROMPT_DELAY_MS = 300

XML = """<node>
 <interface name="org.freedesktop.Secret.Service">
  <method name="OpenSession"><arg type="s" direction="in"/><arg type="v" direction="in"/>
   <arg type="v" direction="out"/><arg type="o" direction="out"/></method>
  <method name="SearchItems"><arg type="a{ss}" direction="in"/>
   <arg type="ao" direction="out"/><arg type="ao" direction="out"/></method>
  <method name="Unlock"><arg type="ao" direction="in"/><arg type="ao" direction="out"/><arg type="o" direction="out"/></method>
  <method name="Lock"><arg type="ao" direction="in"/><arg type="ao" direction="out"/><arg type="o" direction="out"/></method>
  <method name="GetSecrets"><arg type="ao" direction="in"/><arg type="o" direction="in"/>
   <arg type="a{o(oayays)}" direction="out"/></method>
  <method name="ReadAlias"><arg type="s" direction="in"/><arg type="o" direction="out"/></method>
  <property name="Collections" type="ao" access="read"/>
 </interface>
 <interface name="org.freedesktop.Secret.Collection">
  <method name="CreateItem"><arg type="a{sv}" direction="in"/><arg type="(oayays)" direction="in"/>
   <arg type="b" direction="in"/><arg type="o" direction="out"/><arg type="o" direction="out"/></method>
  <method name="SearchItems"><arg type="a{ss}" direction="in"/><arg type="ao" direction="out"/></method>
  <method name="Delete"><arg type="o" direction="out"/></method>
  <signal name="ItemCreated"><arg type="o"/></signal>
  <signal name="ItemDeleted"><arg type="o"/></signal>
  <signal name="ItemChanged"><arg type="o"/></signal>
  <property name="Items" type="ao" access="read"/>
  <property name="Label" type="s" access="read"/>
  <property name="Locked" type="b" access="read"/>
  <property name="Created" type="t" access="read"/>
  <property name="Modified" type="t" access="read"/>
 </interface>
 <interface name="org.freedesktop.Secret.Item">
  <method name="GetSecret"><arg type="o" direction="in"/><arg type="(oayays)" direction="out"/></method>
  <method name="Delete"><arg type="o" direction="out"/></method>
  <property name="Attributes" type="a{ss}" access="read"/>
  <property name="Label" type="s" access="read"/>
  <property name="Locked" type="b" access="read"/>
  <property name="Created" type="t" access="read"/>
  <property name="Modified" type="t" access="read"/>
 </interface>
 <interface name="org.freedesktop.Secret.Prompt">
  <method name="Prompt"><arg type="s" direction="in"/></method>
  <method name="Dismiss"/>
  <signal name="Completed"><arg type="b"/><arg type="v"/></signal>
 </interface>
</node>"""

NODE = Gio.DBusNodeInfo.new_for_xml(XML)
IFACE = {i.name.rsplit(".", 1)[1]: i for i in NODE.interfaces}


class FakeSecretService:
    def __init__(self, connection, log_path, mode):
        self.conn = connection
        self.log_path = log_path
        self.mode = mode
        self.locked = True
        self.items = {}  # path -> {"attributes": {}, "label": str, "secret": bytes}
        self.serial = 0
        self.now = int(time.time())
        self.item_registrations = {}
        self.prompt_registrations = []

    def log(self, event):
        with open(self.log_path, "a") as f:
            f.write(event + "\n")

    def next_path(self, kind):
        self.serial += 1
        return f"{BASE}/{kind}/p{self.serial}" if kind == "prompt" else f"{COLLECTION}/i{self.serial}"

    # -- registration ---------------------------------------------------------------------

    def register(self):
        self.conn.register_object(BASE, IFACE["Service"], self.service_call, self.service_property, None)
        for path in (COLLECTION, ALIAS):
            self.conn.register_object(path, IFACE["Collection"], self.collection_call, self.collection_property, None)

    def set_locked(self, locked):
        self.locked = locked
        changed = GLib.Variant("(sa{sv}as)", ("org.freedesktop.Secret.Collection", {"Locked": GLib.Variant("b", locked)}, []))
        for path in (COLLECTION, ALIAS):
            self.conn.emit_signal(None, path, "org.freedesktop.DBus.Properties", "PropertiesChanged", changed)
        item_changed = GLib.Variant("(sa{sv}as)", ("org.freedesktop.Secret.Item", {"Locked": GLib.Variant("b", locked)}, []))
        for path in self.items:
            self.conn.emit_signal(None, path, "org.freedesktop.DBus.Properties", "PropertiesChanged", item_changed)

    # -- org.freedesktop.Secret.Service ------------------------------------------------------

    def service_property(self, conn, sender, path, iface, name):
        if name == "Collections":
            return GLib.Variant("ao", [COLLECTION])
        return None

    def service_call(self, conn, sender, path, iface, method, params, invocation):
        args = params.unpack()
        if method == "OpenSession":
            if args[0] != "plain":
                invocation.return_dbus_error("org.freedesktop.DBus.Error.NotSupported", "only the plain algorithm")
                return
            invocation.return_value(GLib.Variant("(vo)", (GLib.Variant("s", ""), SESSION)))
        elif method == "ReadAlias":
            invocation.return_value(GLib.Variant("(o)", (COLLECTION if args[0] in ("default", "login") else "/",)))
        elif method == "SearchItems":
            # Like gnome-keyring: the attributes of a locked collection's items are hidden, so
            # nothing matches while locked (a lookup then returns "not found", not a prompt).
            found = [] if self.locked else self.search(args[0])
            invocation.return_value(GLib.Variant("(aoao)", (found, [])))
        elif method == "Unlock":
            self.log("Unlock")
            if not self.locked:
                invocation.return_value(GLib.Variant("(aoo)", (args[0], "/")))
                return
            prompt = self.next_path("prompt")
            self.prompt_registrations.append(
                self.conn.register_object(prompt, IFACE["Prompt"], self.prompt_call(prompt, args[0]), None, None))
            invocation.return_value(GLib.Variant("(aoo)", ([], prompt)))
        elif method == "Lock":
            self.log("Lock")
            self.set_locked(True)
            invocation.return_value(GLib.Variant("(aoo)", (args[0], "/")))
        elif method == "GetSecrets":
            self.log("GetSecrets")
            secrets = {} if self.locked else {p: self.secret_struct(p) for p in args[0] if p in self.items}
            invocation.return_value(GLib.Variant("(a{o(oayays)})", (secrets,)))

    def search(self, wanted):
        return [p for p, item in self.items.items()
                if all(item["attributes"].get(k) == v for k, v in wanted.items())]

    def secret_struct(self, path):
        return (SESSION, b"", self.items[path]["secret"], "text/plain")

    # -- org.freedesktop.Secret.Prompt ------------------------------------------------------

    def prompt_call(self, prompt_path, objects):
        def call(conn, sender, path, iface, method, params, invocation):
            if method == "Dismiss":
                self.log("Dismiss")
                invocation.return_value(None)
                self.complete(prompt_path, True, [])
                return
            self.log("Prompt")
            invocation.return_value(None)
            if self.mode == "complete":
                def finish():
                    self.set_locked(False)
                    self.complete(prompt_path, False, [COLLECTION])
                    return False
                GLib.timeout_add(PROMPT_DELAY_MS, finish)
            elif self.mode == "dismiss":
                GLib.timeout_add(PROMPT_DELAY_MS, lambda: self.complete(prompt_path, True, []) and False)
            # "never": the dialog stays open and nobody answers it.
        return call

    def complete(self, prompt_path, dismissed, unlocked):
        self.log(f"Completed dismissed={str(dismissed).lower()}")
        self.conn.emit_signal(None, prompt_path, "org.freedesktop.Secret.Prompt", "Completed",
                              GLib.Variant("(bv)", (dismissed, GLib.Variant("ao", unlocked))))
        return False

    # -- org.freedesktop.Secret.Collection --------------------------------------------------

    def collection_property(self, conn, sender, path, iface, name):
        return {
            "Items": GLib.Variant("ao", list(self.items)),
            "Label": GLib.Variant("s", "Login"),
            "Locked": GLib.Variant("b", self.locked),
            "Created": GLib.Variant("t", self.now),
            "Modified": GLib.Variant("t", self.now),
        }.get(name)

    def collection_call(self, conn, sender, path, iface, method, params, invocation):
        if self.locked:
            invocation.return_dbus_error("org.freedesktop.Secret.Error.IsLocked", "Cannot create an item in a locked collection")
            return
        args = params.unpack()
        if method == "CreateItem":
            self.log("CreateItem")
            properties, secret, replace = args
            attributes = properties.get("org.freedesktop.Secret.Item.Attributes", {})
            label = properties.get("org.freedesktop.Secret.Item.Label", "")
            existing = self.search(attributes) if replace else []
            item = existing[0] if existing else self.next_path("item")
            self.items[item] = {"attributes": dict(attributes), "label": label, "secret": bytes(secret[2])}
            if item not in self.item_registrations:
                self.item_registrations[item] = self.conn.register_object(
                    item, IFACE["Item"], self.item_call, self.item_property, None)
            invocation.return_value(GLib.Variant("(oo)", (item, "/")))
        elif method == "SearchItems":
            invocation.return_value(GLib.Variant("(ao)", (self.search(args[0]),)))
        elif method == "Delete":
            invocation.return_dbus_error("org.freedesktop.DBus.Error.NotSupported", "not in this fake")

    # -- org.freedesktop.Secret.Item --------------------------------------------------------

    def item_property(self, conn, sender, path, iface, name):
        item = self.items.get(path)
        if item is None:
            return None
        return {
            "Attributes": GLib.Variant("a{ss}", item["attributes"]),
            "Label": GLib.Variant("s", item["label"]),
            "Locked": GLib.Variant("b", self.locked),
            "Created": GLib.Variant("t", self.now),
            "Modified": GLib.Variant("t", self.now),
        }.get(name)

    def item_call(self, conn, sender, path, iface, method, params, invocation):
        if self.locked or path not in self.items:
            invocation.return_dbus_error("org.freedesktop.Secret.Error.IsLocked", "Cannot get secret of a locked object")
            return
        if method == "GetSecret":
            invocation.return_value(GLib.Variant("((oayays))", (self.secret_struct(path),)))
        elif method == "Delete":
            self.log("Delete")
            del self.items[path]
            conn.unregister_object(self.item_registrations.pop(path))
            invocation.return_value(GLib.Variant("(o)", ("/",)))


def main():
    log_path, mode = sys.argv[1], sys.argv[2]
    address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
    loop = GLib.MainLoop()
    connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    service = FakeSecretService(connection, log_path, mode)
    service.register()

    def acquired(*_):
        print("READY " + address, flush=True)

    Gio.bus_own_name_on_connection(connection, "org.freedesktop.secrets", Gio.BusNameOwnerFlags.NONE, acquired, None)
    # EOF on stdin (the test closed its end): the session is over.
    GLib.io_add_watch(GLib.IOChannel.unix_new(0), GLib.PRIORITY_DEFAULT, GLib.IOCondition.IN | GLib.IOCondition.HUP,
                      lambda *_: (loop.quit(), False)[1] if not os.read(0, 4096) else True)
    loop.run()


if __name__ == "__main__":
    main()
