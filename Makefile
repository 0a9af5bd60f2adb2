# kcauth — build, test, demo, install, package. `make help` lists the targets.
SWIFT      ?= swift
PYTHON     ?= .venv/bin/python
BIN_DEBUG   = .build/debug/kcauth

# Release build: the Swift standard library linked in, so the binary runs without a toolchain.
# SCRATCH is SwiftPM's scratch path (e.g. SCRATCH=.build-release to keep it apart from .build).
# Only the shipped products: the build tools (kcauth-docgen) and the example are not shipped.
# Two programs (docs/performance.md §4): kcauth, a small static front that serves a warm-cache
# `kcauth token` itself, and kcauth-full, the full program it execs for everything else.
SCRATCH       ?= .build
# The debug and test builds (`make build`, `make unit`, so `make test` and CI) fail on any compiler
# warning; SWIFT_BUILD_FLAGS= builds without that (e.g. with a newer compiler's new warnings).
SWIFT_BUILD_FLAGS ?= -Xswiftc -warnings-as-errors
RELEASE_FLAGS ?= -c release --static-swift-stdlib
RELEASE_PRODUCTS = kcauth kcauth-full
BIN_RELEASE    = $(SCRATCH)/release/kcauth
SWIFT_SOURCES := Package.swift $(shell find Sources -type f 2>/dev/null)

# Install layout (GNU conventions; DESTDIR for packagers). BINARY=path installs that front binary
# instead of building one, with the kcauth-full beside it (FULL_BINARY=path to take another);
# INSTALL_STRIP= keeps the symbols.
PREFIX      ?= /usr/local
DESTDIR     ?=
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
INSTALL     ?= install
INSTALL_STRIP ?= -s
BINARY      ?=
FULL_BINARY ?= $(if $(BINARY),$(dir $(BINARY))kcauth-full,$(SCRATCH)/release/kcauth-full)
# The front finds the full program at ../libexec/kcauth/kcauth-full from its own directory
# (Sources/KCAuthFastPath/FullProgram.swift), so this follows BINDIR and is not a setting.
FULLDIR      = $(patsubst %/,%,$(dir $(patsubst %/,%,$(BINDIR))))/libexec/kcauth

# Generated from the command table and kept in the tree (`make docs`): the man page by the build
# tool kcauth-docgen, the completions by `kcauth completion SHELL`.
MANPAGE         ?= man/kcauth.1
BASH_COMPLETION ?= completions/kcauth.bash
ZSH_COMPLETION  ?= completions/_kcauth
FISH_COMPLETION ?= completions/kcauth.fish
DOC_FILES        = $(MANPAGE) $(BASH_COMPLETION) $(ZSH_COMPLETION) $(FISH_COMPLETION)

DIST ?= dist

# Symlinks to kcauth under the names git and docker run credential helpers by: the program names
# of the helper table (Sources/KCAuthContract/Integrations/CredentialHelper.swift), which a test
# holds this list to.
HELPER_LINKS = git-credential-kcauth docker-credential-kcauth

.PHONY: help deps build release docs unit integration test demo provider clean \
        install uninstall package package-test fuzz fuzz-smoke

help:
	@echo "make demo         build kcauth and sign in to the bundled local test provider (DEMO_ARGS=--real-browser)"
	@echo "make test         install dependencies, build, run unit and integration tests"
	@echo "make build        debug build (.build/debug/kcauth)"
	@echo "make fuzz         build the libFuzzer targets (.build-fuzz) and run each for FUZZ_SECONDS=60 (FUZZ_TARGETS= to pick)"
	@echo "make release      release build, Swift stdlib linked statically (\$$SCRATCH/release/kcauth and kcauth-full, SCRATCH=.build)"
	@echo "make docs         regenerate man/kcauth.1 (kcauth-docgen) and completions/* (scripts/generate-docs)"
	@echo "make install      release build, then install kcauth, libexec/kcauth/kcauth-full, helper links, man page and completions (PREFIX=/usr/local, DESTDIR=)"
	@echo "make uninstall    remove what make install installed (same PREFIX and DESTDIR)"
	@echo "make package      build the Debian package $(DIST)/kcauth_<version>-1_<arch>.deb (scripts/build-deb)"
	@echo "make package-test build the package; lintian, contents, run without the toolchain, apt install in a debootstrapped Debian (~1.5 min, root)"
	@echo "make provider     install what is missing (make deps), then run the local test provider in the foreground (PORT=8180)"
	@echo "make deps         install apt packages and the test provider's Python venv"

deps:
	scripts/install-deps

build:
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

release:
	for product in $(RELEASE_PRODUCTS); do $(SWIFT) build $(RELEASE_FLAGS) --product $$product --scratch-path $(SCRATCH) || exit 1; done

docs:
	scripts/generate-docs

# install builds only when a source is newer than the binary, so that `make release` followed by
# `sudo make install` runs no build as root (root-owned files in .build would break later builds).
$(BIN_RELEASE): $(SWIFT_SOURCES)
	for product in $(RELEASE_PRODUCTS); do $(SWIFT) build $(RELEASE_FLAGS) --product $$product --scratch-path $(SCRATCH) || exit 1; done
	@touch $@

unit: deps
	$(SWIFT) build --build-tests $(SWIFT_BUILD_FLAGS)
	$(SWIFT) test --skip-build

# The package tests (release build, lintian, apt install into a debootstrapped Debian 12) need
# root; as root they run with the rest, elsewhere `make package-test` runs them on their own.
PACKAGE_TEST ?= $(if $(filter 0,$(shell id -u)),1,)

integration: deps build
	KCAUTH_BIN=$(CURDIR)/$(BIN_DEBUG) KCAUTH_PACKAGE_TEST=$(PACKAGE_TEST) KCAUTH_CHROOT_TEST=$(PACKAGE_TEST) \
	  KCAUTH_SCRATCH=$(SCRATCH) \
	  $(PYTHON) -m pytest Tests/Integration -q -p no:cacheprovider --durations=20

# libFuzzer targets (Tests/Fuzz/Targets, scripts/fuzz): instrumented swiftc builds in .build-fuzz,
# apart from the normal build. `make fuzz` runs each for FUZZ_SECONDS; CI runs fuzz-smoke, a short
# run of every target that must stay clean (FUZZ_SMOKE_TARGETS, empty: all).
FUZZ_SECONDS       ?= 60
FUZZ_TARGETS       ?=
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_SMOKE_TARGETS ?=

fuzz:
	scripts/fuzz --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-smoke:
	scripts/fuzz --seconds $(FUZZ_SMOKE_SECONDS) $(FUZZ_SMOKE_TARGETS)

# The whole suite: what CI runs (.ci/run) and what README tells contributors to run.
test: unit integration fuzz-smoke

demo: deps build
	scripts/demo $(DEMO_ARGS)

provider: deps
	$(PYTHON) Tests/Provider/run.py --port $(or $(PORT),8180)

# A missing man page or completion stops the install before anything is built or copied.
$(DOC_FILES):
	@echo "make: $@ is missing: the man page and completions are generated from the command table (make docs)" >&2
	@exit 1

install: $(DOC_FILES) $(if $(BINARY),,$(BIN_RELEASE))
	@test -x "$(or $(BINARY),$(BIN_RELEASE))" || { echo "make: no kcauth binary at $(or $(BINARY),$(BIN_RELEASE))" >&2; exit 1; }
	@test -x "$(FULL_BINARY)" || { echo "make: no kcauth-full binary at $(FULL_BINARY)" >&2; exit 1; }
	$(INSTALL) -D -m 755 $(INSTALL_STRIP) "$(or $(BINARY),$(BIN_RELEASE))" "$(DESTDIR)$(BINDIR)/kcauth"
	$(INSTALL) -D -m 755 $(INSTALL_STRIP) "$(FULL_BINARY)" "$(DESTDIR)$(FULLDIR)/kcauth-full"
	@# git and docker find their credential helpers by name; kcauth answers by the name it runs as.
	$(foreach helper,$(HELPER_LINKS),ln -sfn kcauth "$(DESTDIR)$(BINDIR)/$(helper)";)
	$(INSTALL) -D -m 644 "$(MANPAGE)" "$(DESTDIR)$(MANDIR)/man1/kcauth.1"
	$(INSTALL) -D -m 644 "$(BASH_COMPLETION)" "$(DESTDIR)$(BASHCOMPDIR)/kcauth"
	$(INSTALL) -D -m 644 "$(ZSH_COMPLETION)" "$(DESTDIR)$(ZSHCOMPDIR)/_kcauth"
	$(INSTALL) -D -m 644 "$(FISH_COMPLETION)" "$(DESTDIR)$(FISHCOMPDIR)/kcauth.fish"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/kcauth" $(foreach helper,$(HELPER_LINKS),"$(DESTDIR)$(BINDIR)/$(helper)") \
	      "$(DESTDIR)$(MANDIR)/man1/kcauth.1" \
	      "$(DESTDIR)$(BASHCOMPDIR)/kcauth" "$(DESTDIR)$(ZSHCOMPDIR)/_kcauth" \
	      "$(DESTDIR)$(FISHCOMPDIR)/kcauth.fish"
	rm -f "$(DESTDIR)$(FULLDIR)/kcauth-full"
	rmdir "$(DESTDIR)$(FULLDIR)" 2>/dev/null || true

package:
	scripts/build-deb --scratch-path $(SCRATCH) --out $(DIST)

# Builds the .deb (a release build, hence not part of `make test`), runs lintian on it, inspects it,
# runs the extracted binary with the Swift toolchain hidden, and installs it with apt-get into a
# debootstrapped Debian (scripts/deb-chroot-test; needs root and the Debian mirror; CHROOT_TEST= skips it).
CHROOT_TEST ?= 1
package-test: deps
	KCAUTH_PACKAGE_TEST=1 KCAUTH_CHROOT_TEST=$(CHROOT_TEST) KCAUTH_SCRATCH=$(SCRATCH) \
	  $(PYTHON) -m pytest Tests/Integration/test_packaging.py -q -s -p no:cacheprovider

clean:
	rm -rf .build .build-fuzz .cache $(DIST)
