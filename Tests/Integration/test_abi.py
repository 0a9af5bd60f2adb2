"""CLibSecret declares the few libsecret/GLib types and values kcauth uses itself, so that the
library can be dlopen()ed (see Sources/CLibSecret/include/CLibSecret.h). This compiles a probe
against the real headers and checks every declared value and layout against them.

COpenSSL, CQREncode and CZlib dlopen libcrypto, libqrencode and zlib too, but type their function tables with
`__typeof__` of the real prototypes: here they are compiled against the real headers with every
warning an error, every symbol they bind must be exported by the real library, and the built
binary must not link any of the five libraries (each would be mapped and relocated at every start).
"""

import re
import subprocess
from pathlib import Path

import pytest

from kcauth import BINARY, FULL_BINARY

REPO = Path(__file__).resolve().parents[2]
HEADER = REPO / "Sources" / "CLibSecret" / "include" / "CLibSecret.h"
LOADER = REPO / "Sources" / "CLibSecret" / "loader.c"


def real(tmp_path, expressions):
    probe = tmp_path / "probe.c"
    lines = [f'    printf("%s=%ld\\n", "{name}", (long)({expr}));' for name, expr in expressions]
    probe.write_text("#include <libsecret/secret.h>\n#include <stdio.h>\n#include <stddef.h>\nint main(void) {\n"
                     + "\n".join(lines) + "\n    return 0;\n}\n")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libsecret-1"], capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", str(probe), "-o", str(tmp_path / "probe"), *flags], check=True)
    out = subprocess.run([str(tmp_path / "probe")], capture_output=True, text=True, check=True).stdout
    return dict(line.split("=") for line in out.split())


def test_declared_enum_values_match_the_real_headers(tmp_path):
    declared = dict(re.findall(r"\b((?:G_IO_ERROR|G_DBUS_ERROR|SECRET_ERROR|G_BUS_TYPE|SECRET_SERVICE|SECRET_COLLECTION)_[A-Z_]+) = (\d+)",
                               HEADER.read_text()))
    assert len(declared) == 18, declared
    assert real(tmp_path, [(n, n) for n in declared]) == declared


def test_declared_layouts_match_the_real_headers(tmp_path):
    values = real(tmp_path, [
        ("gerror_size", "sizeof(GError)"), ("gerror_code", "offsetof(GError, code)"),
        ("gerror_message", "offsetof(GError, message)"),
        ("glist_data", "offsetof(GList, data)"), ("glist_next", "offsetof(GList, next)"),
        ("schema_size", "sizeof(SecretSchema)"), ("schema_attributes", "offsetof(SecretSchema, attributes)"),
        ("attribute_size", "sizeof(SecretSchemaAttribute)"), ("search_all", "SECRET_SEARCH_ALL"),
        ("collection_default_is_default", 'sizeof(SECRET_COLLECTION_DEFAULT) == sizeof("default")'),
    ])
    assert values == {"gerror_size": "16", "gerror_code": "4", "gerror_message": "8", "glist_data": "0",
                      "glist_next": "8", "schema_size": "592", "schema_attributes": "16",
                      "attribute_size": "16", "search_all": "2", "collection_default_is_default": "1"}
    # The loader's private copy of SecretSchema has the same layout.
    probe = tmp_path / "layout.c"
    struct = re.search(r"typedef struct \{ const gchar \*name; int type; \} KCSchemaAttribute;.*?\} KCSchema;", LOADER.read_text(), re.S)
    probe.write_text("typedef char gchar; typedef int gint;\n#include <stdio.h>\n#include <stddef.h>\n" + struct.group(0)
                     + '\nint main(void) { printf("%zu %zu\\n", sizeof(KCSchema), offsetof(KCSchema, attributes)); return 0; }\n')
    subprocess.run(["cc", str(probe), "-o", str(tmp_path / "layout")], check=True)
    assert subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True).stdout.split() == ["592", "16"]


LAZY_LOADERS = {
    # loader: (soname, how its symbols are bound)
    REPO / "Sources" / "COpenSSL" / "loader.c": ("libcrypto.so.3", r"(?<!#define )KC_BIND\((\w+)\)"),
    REPO / "Sources" / "CQREncode" / "loader.c": ("libqrencode.so.4", r'dlsym\(lib, "(\w+)"\)'),
    REPO / "Sources" / "CZlib" / "loader.c": ("libz.so.1", r"(?<!#define )KC_BIND\((\w+)\)"),
}


def exported(soname):
    path = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True, check=True).stdout
    found = re.search(rf"^\s*{re.escape(soname)} \(libc6,x86-64\) => (\S+)$", path, re.M)
    assert found, f"{soname} is not installed"
    symbols = subprocess.run(["nm", "-D", "--defined-only", found.group(1)], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1].split("@")[0] for line in symbols.splitlines() if line.strip()}


@pytest.mark.parametrize("loader", list(LAZY_LOADERS), ids=lambda p: p.parent.name)
def test_lazy_loaders_compile_against_the_real_headers(loader, tmp_path):
    include = loader.parent / "include"
    subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter", "-c", "-I", str(include),
                    str(loader), "-o", str(tmp_path / "loader.o")], check=True)


@pytest.mark.parametrize("loader", list(LAZY_LOADERS), ids=lambda p: p.parent.name)
def test_every_bound_symbol_is_exported_by_the_real_library(loader):
    soname, pattern = LAZY_LOADERS[loader]
    bound = set(re.findall(pattern, loader.read_text()))
    assert len(bound) >= 2 and "name" not in bound, bound
    assert f'"{soname}"' in loader.read_text()
    assert bound - exported(soname) == set()


def needed_libraries(binary):
    dynamic = subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True, check=True).stdout
    return set(re.findall(r"\(NEEDED\)\s+Shared library: \[(\S+)\]", dynamic))


def test_the_full_program_links_none_of_the_lazily_loaded_libraries():
    needed = needed_libraries(FULL_BINARY)
    assert "libc.so.6" in needed, needed
    assert needed & {"libcrypto.so.3", "libqrencode.so.4", "libsecret-1.so.0", "libcurl.so.4", "libz.so.1"} == set()


def test_the_front_is_static_and_links_nothing():
    # No program interpreter and no NEEDED at all: the dynamic loader never runs for a warm token.
    headers = subprocess.run(["readelf", "-l", "-W", str(BINARY)], capture_output=True, text=True, check=True).stdout
    assert "INTERP" not in headers and "Requesting program interpreter" not in headers, headers
    assert needed_libraries(BINARY) == set()


def libsecret_bindings():
    """(field, symbol, the field's declared function-pointer type) for every KC_BIND in the loader."""
    text = LOADER.read_text()
    api = re.search(r"static struct \{(.*?)\} api;", text, re.S).group(1)
    fields = {}
    for decl in api.split(";"):
        found = re.match(r"\s*(.+?)\(\*(\w+)\)\((.*)\)\s*$", decl, re.S)
        if found:
            fields[found.group(2)] = f"{found.group(1).strip()} (*)({' '.join(found.group(3).split())})"
    bound = re.findall(r'KC_BIND\((\w+), "(\w+)"\)', text)
    return [(field, symbol, fields[field]) for field, symbol in bound]


def test_every_libsecret_symbol_resolves_through_the_loaders_dlopen(tmp_path):
    bindings = libsecret_bindings()
    assert len(bindings) >= 22 and ("service_unlock_sync", "secret_service_unlock_sync") in [b[:2] for b in bindings]
    probe = tmp_path / "resolve.c"
    probe.write_text('#include <dlfcn.h>\n#include <stdio.h>\nint main(int argc, char **argv) {\n'
                     '    void *lib = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);\n    if (!lib) return 2;\n'
                     '    for (int i = 1; i < argc; i++) if (!dlsym(lib, argv[i])) printf("%s\\n", argv[i]);\n    return 0;\n}\n')
    subprocess.run(["cc", str(probe), "-o", str(tmp_path / "resolve"), "-ldl"], check=True)
    run = subprocess.run([str(tmp_path / "resolve"), *[symbol for _, symbol, _ in bindings]], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == "", run


def test_libsecret_function_types_match_the_real_prototypes(tmp_path):
    """The loader's own function-pointer types against <libsecret/secret.h>, except where it
    deliberately differs: its private schema struct and the variadic attribute lists (checked by
    the layout test above), and `int` for GLib enum parameters (GCC gives those enums an unsigned
    representation, so the types differ formally while the calling convention is the same), and
    g_quark_to_string, declared G_GNUC_CONST, which GCC makes part of the function's type."""
    checked = [(field, symbol, kind) for field, symbol, kind in libsecret_bindings()
               if "KCSchema" not in kind and not re.search(r"\(\*\)\((int|.*, int)\b", kind)
               and symbol != "g_quark_to_string"]
    assert "service_unlock_sync" in [field for field, _, _ in checked]
    assert len(checked) >= 14, checked
    probe = tmp_path / "types.c"
    probe.write_text("#include <libsecret/secret.h>\n" + "".join(
        f'_Static_assert(__builtin_types_compatible_p(__typeof__(&{symbol}), {kind}), "{field}");\n'
        for field, symbol, kind in checked))
    flags = subprocess.run(["pkg-config", "--cflags", "libsecret-1"], capture_output=True, text=True, check=True).stdout.split()
    compiled = subprocess.run(["cc", "-c", str(probe), "-o", str(tmp_path / "types.o"), *flags], capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
