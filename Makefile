# sandmux — see README.md. `make` builds ./sandmux; `make test` runs every test.
PREFIX  ?= /usr/local
DESTDIR ?=
PKGS     = libcjson libseccomp ncursesw vterm

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I.
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

SRC     := $(wildcard policy/*.c backends/*.c pty/*.c ui/*.c shell/*.c)
OBJ     := $(SRC:%.c=build/%.o)
LIBOBJ  := $(filter-out build/shell/main.o,$(OBJ))
UNIT    := $(wildcard tests/unit/test_*.c)
UNITBIN := $(UNIT:tests/unit/%.c=build/tests/%)
ASANBIN := $(UNIT:tests/unit/%.c=build/asan/tests/%)
ASANOBJ := $(LIBOBJ:build/%=build/asan/%)
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: all deps check-deps test unit unit-asan run install bench fuzz clean
all: check-deps sandmux

check-deps:
	@missing=""; for p in $(PKGS); do pkg-config --exists $$p || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "sandmux: missing build dependencies (pkg-config):$$missing"; \
	echo "sandmux: install them with: sh tests/deps.sh (or make deps)"; exit 1; fi

# Installs the Debian packages the build needs, when it can (root, or sudo).
deps:
	@sh tests/deps.sh

sandmux: $(OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(LDFLAGS)

build/%.o: %.c $(wildcard */*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

build/asan/%.o: %.c $(wildcard */*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SANFLAGS) $(PKG_CFLAGS) -c -o $@ $<

build/tests/%: tests/unit/%.c $(LIBOBJ) tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(LIBOBJ) $(PKG_LIBS)

build/asan/tests/%: tests/unit/%.c $(ASANOBJ) tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SANFLAGS) $(PKG_CFLAGS) -o $@ $< $(ASANOBJ) $(PKG_LIBS)

unit: $(UNITBIN)
unit-asan: $(ASANBIN)

# The README's test command: unit tests (plain and under ASan/UBSan), sandbox
# tests as root and as an unprivileged user, end-to-end tests in tmux.
test: all unit unit-asan
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
