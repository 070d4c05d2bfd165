# SPDX-License-Identifier: GPL-2.0-only
#
# pcptop, built in the manner of libbpf-tools: clang compiles the CO-RE BPF
# object against a per-arch vmlinux.h, bpftool turns it into a skeleton,
# and the loader links Debian's libbpf, libelf and zlib.
#
#   make                 build/pcptop for this machine
#   make ARCH=arm64      build/arm64/pcptop, static (STATIC=1 is the default)
#   make STATIC=1        a static build/pcptop
#   make deps            install the Debian packages needed (idempotent)
#   make run             deps, build, start pcptop
#   make test            deps, build, every test (unit, live, VM matrix)
#   make V=1             show the commands

HOST_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
ARCH ?= $(HOST_ARCH)

ifeq ($(ARCH),$(HOST_ARCH))
OUTPUT ?= build
CROSS_COMPILE ?=
STATIC ?= 0
else
OUTPUT ?= build/$(ARCH)
CROSS_COMPILE ?= $(if $(filter arm64,$(ARCH)),aarch64-linux-gnu-,)
STATIC ?= 1
endif

CC := $(CROSS_COMPILE)gcc
CLANG ?= clang
BPFTOOL ?= bpftool
CFLAGS ?= -g -O2
WARN := -Wall -Wextra -Wno-unused-parameter -Wno-format-truncation
INCLUDES := -I$(OUTPUT) -Isrc -Ibpf
BPF_CFLAGS := -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(ARCH) \
	-Ivmlinux/$(ARCH) -Ibpf
LDLIBS := -lbpf -lelf -lz -lncursesw -ltinfo
ifeq ($(STATIC),1)
LDFLAGS += -static
endif

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

APP := $(OUTPUT)/pcptop
BPF_OBJ := $(OUTPUT)/pcptop.bpf.o
SKEL := $(OUTPUT)/pcptop.skel.h
SRCS := $(wildcard src/*.c)
OBJS := $(patsubst src/%.c,$(OUTPUT)/%.o,$(SRCS))
# pure user-space logic the unit tests link without libbpf
UNIT_SRCS := src/procfs.c src/scale.c src/hist.c src/json.c src/recfile.c \
	src/recread.c src/rechdr.c
UNIT_TESTS := $(wildcard tests/unit/*.c)
WORKLOADS := $(patsubst tests/workload/%.c,$(OUTPUT)/%,$(wildcard tests/workload/*.c))

.PHONY: all deps deps-all vm-builds vmtest vmshell vmtest-patched run test unit live bench vmlinux workloads clean
.DELETE_ON_ERROR:

all: $(APP) workloads

$(OUTPUT):
	$(Q)mkdir -p $@

$(BPF_OBJ): bpf/pcptop.bpf.c bpf/compat.bpf.h bpf/pcptop.h vmlinux/$(ARCH)/vmlinux.h | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(SKEL): $(BPF_OBJ)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name pcptop_bpf > $@

$(OUTPUT)/%.o: src/%.c $(wildcard src/*.h) bpf/pcptop.h $(SKEL) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARN) $(INCLUDES) -c $< -o $@

$(APP): $(OBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

workloads: $(WORKLOADS)

# static so the same load runs on the host and in every VM's initramfs
$(OUTPUT)/%: tests/workload/%.c tests/workload/workload.h | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARN) -static $< -o $@

$(OUTPUT)/unit_tests: $(UNIT_TESTS) $(UNIT_SRCS) $(wildcard src/*.h) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARN) -Isrc -Ibpf -Itests/unit $(UNIT_TESTS) $(UNIT_SRCS) -lz -o $@

deps:
	$(Q)scripts/deps.sh $(if $(filter-out $(HOST_ARCH),$(ARCH)),$(ARCH))

# the VM tests need the arm64 cross toolchain and libraries too
deps-all:
	$(Q)scripts/deps.sh arm64

unit: $(OUTPUT)/unit_tests
	$(Q)$(OUTPUT)/unit_tests

live: all
	$(Q)tests/live/run.sh $(APP)

# static pcptop and workloads for the VM initramfs images, both arches
vm-builds:
	$(Q)$(MAKE) --no-print-directory ARCH=x86 STATIC=1 OUTPUT=build/vm-x86 all
	$(Q)$(MAKE) --no-print-directory ARCH=arm64 OUTPUT=build/arm64 all

# make vmtest [KERNELS="amd64-6.12 arm64-6.1"]: Debian kernels under qemu
vmtest: deps-all vm-builds
	$(Q)tests/vm/run.sh $(KERNELS)

# make vmshell KERNEL=amd64-6.12: boot one to a busybox shell
vmshell: deps-all vm-builds
	$(Q)tests/vm/run.sh --shell $(KERNEL)

# pcp_batch_scale_max= proven on a patched 6.12 (kernel built once, cached)
vmtest-patched: deps-all vm-builds
	$(Q)tests/vm/patched.sh

test: deps-all
	$(Q)$(MAKE) --no-print-directory all $(OUTPUT)/unit_tests
	$(Q)$(MAKE) --no-print-directory vm-builds
	$(Q)tests/run-all.sh

run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(APP)

# figures, not a test: the cost of pcptop on the page churn
bench: all
	$(Q)tests/bench/overhead.sh $(OUTPUT)

# regenerate vmlinux/*/vmlinux.h from Debian's 6.12 kernel images
vmlinux:
	$(Q)vmlinux/gen-vmlinux.sh all

clean:
	$(call msg,CLEAN,build)
	$(Q)rm -rf build
