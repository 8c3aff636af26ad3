# sandmux — see README.md. `make` builds ./sandmux; `make test` runs every test.
PREFIX  ?= /usr/local
DESTDIR ?=
PKGS     = libcjson libseccomp ncursesw vterm

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I.
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# The terminal libraries go into the binary itself where their archives
# are installed: `sandmux run` uses neither, and loading them as shared
# libraries cost every start 0.3-0.5 ms.
TERM_LIBS  := $(shell pkg-config --libs ncursesw vterm 2>/dev/null)
TERM_AR    := $(shell for l in $(TERM_LIBS:-l%=lib%.a); do [ -f "$$($(CC) -print-file-name=$$l)" ] || exit 0; done; echo yes)
TERM_AR_LIBS = $(shell pkg-config --libs libcjson libseccomp 2>/dev/null) -Wl,-Bstatic $(TERM_LIBS) -Wl,-Bdynamic
BIN_LIBS   := $(if $(TERM_AR),$(TERM_AR_LIBS),$(PKG_LIBS))

SRC     := $(wildcard policy/*.c backends/*.c pty/*.c ui/*.c shell/*.c)
OBJ     := $(SRC:%.c=build/%.o)
LIBOBJ  := $(filter-out build/shell/main.o,$(OBJ))
UNIT    := $(wildcard tests/unit/test_*.c)
UNITBIN := $(UNIT:tests/unit/%.c=build/tests/%)
ASANBIN := $(UNIT:tests/unit/%.c=build/asan/tests/%)
ASANOBJ := $(LIBOBJ:build/%=build/asan/%)
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: all deps check-deps test unit unit-asan sandmux-asan run install bench fuzz clean
all: check-deps sandmux

check-deps:
	@missing=""; for p in $(PKGS); do pkg-config --exists $$p || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "sandmux: missing build dependencies (pkg-config):$$missing"; \
	echo "sandmux: install them with: sh tests/deps.sh (or make deps)"; exit 1; fi

# Installs the Debian packages the build needs, when it can (root, or sudo).
deps:
	@sh tests/deps.sh

sandmux: $(OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(BIN_LIBS) $(LDFLAGS)

# Each object depends on the headers it includes (-MMD), not on every header.
build/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP $(PKG_CFLAGS) -c -o $@ $<

build/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP $(SANFLAGS) $(PKG_CFLAGS) -c -o $@ $<

-include $(OBJ:.o=.d) $(ASANOBJ:.o=.d) build/asan/shell/main.d

# The build checks the layering: a unit test links against the objects of
# the highest layer it includes and the layers below it only, so an arrow
# pointing up (policy/ calling backends/, backends/ calling shell/) breaks
# the link. Layer of a test: shell or ui > backends or pty > policy.
test_layer = $(if $(shell grep -lE '"(shell|ui)/' tests/unit/$(1).c),all,$(if $(shell grep -l '"backends/' tests/unit/$(1).c),backends,$(if $(shell grep -l '"pty/' tests/unit/$(1).c),pty,policy)))
objs_policy   = $(filter $(1)policy/%,$(2))
objs_backends = $(filter $(1)policy/% $(1)backends/%,$(2))
objs_pty      = $(filter $(1)policy/% $(1)pty/%,$(2))
objs_all      = $(2)
libs_policy   = $(shell pkg-config --libs libcjson 2>/dev/null)
libs_backends = $(shell pkg-config --libs libcjson libseccomp 2>/dev/null)
libs_pty      = $(shell pkg-config --libs libcjson vterm 2>/dev/null)
libs_all      = $(PKG_LIBS)

.SECONDEXPANSION:
build/tests/%: tests/unit/%.c $$(call objs_$$(call test_layer,$$*),build/,$$(LIBOBJ)) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(call objs_$(call test_layer,$*),build/,$(LIBOBJ)) $(libs_$(call test_layer,$*))

build/asan/tests/%: tests/unit/%.c $$(call objs_$$(call test_layer,$$*),build/asan/,$$(ASANOBJ)) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SANFLAGS) $(PKG_CFLAGS) -o $@ $< $(call objs_$(call test_layer,$*),build/asan/,$(ASANOBJ)) $(libs_$(call test_layer,$*))

unit: $(UNITBIN)
unit-asan: $(ASANBIN)

# The whole binary under ASan/UBSan: `make test` runs the end-to-end tests
# against it a second time (tests/run.sh).
build/asan/sandmux: $(ASANOBJ) build/asan/shell/main.o
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(PKG_LIBS) $(LDFLAGS)
sandmux-asan: build/asan/sandmux

# The README's test command: unit tests (plain and under ASan/UBSan), sandbox
# tests as root and as an unprivileged user, end-to-end tests in tmux.
test: all unit unit-asan sandmux-asan
	@./tests/run.sh

run: deps all
	./sandmux

bench: all
	@./tests/bench/run.sh

fuzz:
	@./tests/fuzz/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 sandmux $(DESTDIR)$(PREFIX)/bin/sandmux

clean:
	rm -rf build sandmux
