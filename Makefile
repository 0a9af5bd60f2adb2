# kcauth — build, test, demo. `make help` lists the targets.
SWIFT      ?= swift
PYTHON     ?= .venv/bin/python
PREFIX     ?= /usr/local
BIN_DEBUG   = .build/debug/kcauth

.PHONY: help deps build release unit integration test demo provider clean

help:
	@echo "make demo         build kcauth and sign in to the bundled local test provider (DEMO_ARGS=--real-browser)"
	@echo "make test         install dependencies, build, run unit and integration tests"
	@echo "make build        debug build (.build/debug/kcauth)"
	@echo "make release      release build (.build/release/kcauth)"
	@echo "make provider     start the local test provider in the foreground (PORT=8180)"
	@echo "make deps         install apt packages and the test provider's Python venv"

deps:
	scripts/install-deps

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

unit: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

integration: deps build
	KCAUTH_BIN=$(CURDIR)/$(BIN_DEBUG) $(PYTHON) -m pytest Tests/Integration -q -p no:cacheprovider

# The whole suite: what CI runs (.ci/run) and what README tells contributors to run.
test: unit integration

demo: deps build
	scripts/demo $(DEMO_ARGS)

provider: deps
	$(PYTHON) Tests/Provider/run.py --port $(or $(PORT),8180)

clean:
	rm -rf .build .cache
