# gcol — build, test and benchmark.
#   make            libgcol.a and libgcol.so
#   make test       build everything and run every test (GPU tests skip without a GPU),
#                   after the kernel budget (make kernel-budget)
#   make demo       build and run the main example
#   make bench      benchmarks (needs a GPU)
#   make peer-cuco CUCO_INCLUDE=DIR  cuCollections measured as a peer (bench/peer_cuco.cu)
#   make install    headers, libgcol.a/.so, gcol.pc and the CMake package under PREFIX
#                   (libgcol_nccl too, where BUILD holds it)
#   make uninstall  remove exactly what install put there (its manifest)
#   make bench-python  Python binding overhead and 100M-key insert (needs a GPU)
#   make wheel      the release wheel (WHEEL_ARCHS) in build-wheel/dist, its tag checked
# GPU_ARCHS is the one knob for the GPU targets.

CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
CC        ?= gcc
GPU_ARCHS ?= -gencode arch=compute_80,code=sm_80 \
             -gencode arch=compute_90,code=sm_90 \
             -gencode arch=compute_90,code=compute_90

BUILD   ?= build
# Build in parallel by default (make test on a fresh clone is the CI command).
ifeq (,$(filter -j%,$(MAKEFLAGS)))
MAKEFLAGS += -j$(shell nproc)
endif
INC     := -Iinclude -Isrc -isystem $(CUDA_HOME)/include
CFLAGS  ?= -O2
CFLAGS  += -std=c11 -pedantic -Wall -Wextra -Werror -fPIC $(INC)
NVFLAGS ?= -O3
NVFLAGS += -std=c++17 $(GPU_ARCHS) $(INC) -Xcompiler -fPIC,-Wall,-Wextra --expt-relaxed-constexpr \
           -Werror all-warnings
LDLIBS  := -L$(CUDA_HOME)/lib64 -lcudart_static -lstdc++ -lpthread -ldl -lrt -lm

# ---- library ---------------------------------------------------------------
# Only the API is exported: everything is compiled with hidden visibility and
# the public headers mark their declarations GCOL_API.
VISIBILITY := -fvisibility=hidden
CFLAGS  += $(VISIBILITY)
NVFLAGS += -Xcompiler $(VISIBILITY),-fvisibility-inlines-hidden

# Internals that define no public symbol: libgcol and libgcol_nccl each link
# their own copy (errors and messages, NVTX ranges, CUDA status, pointer and
# config checks, the allocator hook, the map's config rules).
CORE_C  := src/core/error.c src/core/nvtx.c src/core/cuda_status.c src/core/args.c src/core/config_abi.c src/core/device_alloc.c \
           src/map/map_config_check.c
LIB_C   := src/core/status.c src/core/version.c src/map/map_config.c src/map/map_policy.c
LIB_C   += src/core/oa_shell.c # the open-addressing containers' shared calls and checks
LIB_C   += src/compact/compact_api.c src/compact/compact_policy.c src/multimap/mm_plan.c
LIB_CU  := src/map/map.cu src/map/map_table.cu src/map/map_grow.cu
LIB_CU  += src/sssp/graph.cu
LIB_CU  += src/compact/select_stable.cu src/compact/reduce.cu src/compact/scan.cu
LIB_CU  += src/multimap/multimap.cu
# the open-addressing core's host side, and the set and multiset on it
LIB_CU  += src/multimap/mm_host.cu src/set/set.cu src/set/multiset.cu # and oa_host.cu (VARIANT_CU)
LIB_C   += src/set/set_config.c
# sketches (issue 24): the Bloom filter and HyperLogLog
LIB_C   += src/bloom/bloom_math.c src/hll/hll_estimate.c
# (bloom.cu and hll.cu have test hooks: VARIANT_CU)
# the string dictionary (issue 25)
LIB_C   += src/strmap/strmap_config.c
LIB_CU  += src/strmap/strmap.cu # and strmap_host.cu, which has a test hook (VARIANT_CU)
# Sources compiled twice: shipped (only the kernel variants the policy rows
# select, no test hooks) and, with -DGCOL_TESTING, for tests and benchmarks
# (every variant the sweeps need, and the hooks of src/core/test_hooks.h) in
# libgcol_testing.a. A source that reads a hook belongs here.
VARIANT_CU := src/sssp/sssp.cu src/compact/select_any.cu
# the Bloom filter's tile sweep, HyperLogLog's overflow forms, the strmap's hash mask
VARIANT_CU += src/bloom/bloom.cu src/hll/hll.cu src/strmap/strmap_host.cu
# shortest paths (issue 27): the path call, and the buffer-extent check its predecessor table uses
VARIANT_CU += src/sssp/paths.cu
# the open-addressing core's host side: the oa hooks (grouped, region order, counters)
VARIANT_CU += src/map/oa_host.cu
LIB_C   += src/core/dptr_room.c
# key x value widths of the core's kernels (value 0: sets and multisets)
PAIRS   := 4_4 4_8 8_4 8_8 4_0 8_0
# issue 25: 16-byte keys (GCOL_U128) with 4- and 8-byte values, and keys only
PAIRS   += 16_0 16_4 16_8
CORE_OBJ := $(CORE_C:%.c=$(BUILD)/%.o)
COMMON_OBJ := $(CORE_OBJ) $(LIB_C:%.c=$(BUILD)/%.o) $(LIB_CU:%.cu=$(BUILD)/%.o)
# the per-pair instances of the open-addressing core and of the multimap have
# test variants too (the sweeps' tiles, lanes and keys in flight)
INSTANCES = $(PAIRS:%=$(1)/src/map/map_instance_%.o) $(PAIRS:%=$(1)/src/multimap/mm_instance_%.o)
LIB_OBJ := $(COMMON_OBJ) $(VARIANT_CU:%.cu=$(BUILD)/%.o) $(call INSTANCES,$(BUILD))

# libgcol_testing.a: the library with every variant and hook, plus the test
# support in tests/support (CPU references, graph readers, heap drivers, the
# map's policy override). Tests and benchmarks link it; nothing ships it.
SUPPORT_SRC := $(wildcard tests/support/*.c tests/support/*.cu)
TESTING_OBJ := $(COMMON_OBJ) $(VARIANT_CU:%.cu=$(BUILD)/testing/%.o) \
               $(call INSTANCES,$(BUILD)/testing) \
               $(patsubst %,$(BUILD)/%.o,$(basename $(SUPPORT_SRC)))
# tests, benchmarks and their support are the test build: they see the hooks
TEST_INC := -Itests/support -DGCOL_TESTING

# The library version comes from the public header's macros, nowhere else.
version_part = $(shell sed -n 's/^\#define GCOL_VERSION_$(1) \([0-9]*\)$$/\1/p' include/gcol/gcol.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION       := $(VERSION_MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)

all: $(BUILD)/libgcol.a $(BUILD)/libgcol.so

# CUDA objects are rebuilt when GPU_ARCHS changes: the stamp holds the
# architectures the folder's objects were built for.
ARCH_STAMP := $(BUILD)/.gpu_archs
$(ARCH_STAMP): FORCE
	@mkdir -p $(BUILD)
	@echo '$(GPU_ARCHS)' | cmp -s - $@ || echo '$(GPU_ARCHS)' > $@
FORCE:

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -c $< -o $@

$(BUILD)/%.o: %.cu $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -MMD -c $< -o $@

$(BUILD)/testing/%.o: %.cu $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -DGCOL_TESTING -MMD -c $< -o $@

# one object per key width x value width, from one source
$(BUILD)/src/map/map_instance_%.o: src/map/map_instance.cu $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -MMD -DGCOL_KB=$(word 1,$(subst _, ,$*)) -DGCOL_VB=$(word 2,$(subst _, ,$*)) -c $< -o $@
$(BUILD)/testing/src/map/map_instance_%.o: src/map/map_instance.cu $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -DGCOL_TESTING -MMD -DGCOL_KB=$(word 1,$(subst _, ,$*)) -DGCOL_VB=$(word 2,$(subst _, ,$*)) -c $< -o $@

# the multimap's kernels, the same way
$(BUILD)/src/multimap/mm_instance_%.o: src/multimap/mm_instance.cu $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -MMD -DGCOL_KB=$(word 1,$(subst _, ,$*)) -DGCOL_VB=$(word 2,$(subst _, ,$*)) -c $< -o $@
$(BUILD)/testing/src/multimap/mm_instance_%.o: src/multimap/mm_instance.cu $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -DGCOL_TESTING -MMD -DGCOL_KB=$(word 1,$(subst _, ,$*)) -DGCOL_VB=$(word 2,$(subst _, ,$*)) -c $< -o $@

# examples see only what an install ships: the public headers
$(BUILD)/examples/%.o: INC := -Iinclude -isystem $(CUDA_HOME)/include

# test support, tests and benchmarks may include the CPU references
$(BUILD)/tests/%.o: CFLAGS += $(TEST_INC)
$(BUILD)/tests/%.o: NVFLAGS += $(TEST_INC)
$(BUILD)/bench/%.o: CFLAGS += $(TEST_INC)
$(BUILD)/bench/%.o: NVFLAGS += $(TEST_INC)

$(BUILD)/libgcol.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libgcol_testing.a: $(TESTING_OBJ)
	rm -f $@ && ar rcs $@ $^

# SONAME libgcol.so.MAJOR. The static CUDA runtime inside stays private
# (--exclude-libs): a process that also loads another libcudart (PyTorch, CuPy)
# must not have gcol's runtime calls bound to that one, nor the reverse.
$(BUILD)/libgcol.so: $(LIB_OBJ)
	$(NVCC) -shared $(GPU_ARCHS) $^ -Xlinker -soname=libgcol.so.$(VERSION_MAJOR) \
	  -Xlinker --exclude-libs=ALL -o $@
	@$(PYTHON) scripts/kernel_count.py $@ || echo "(the kernels of $@ could not be counted)"

# The same objects linked against glibc $(LINK_GLIBC)'s symbol versions
# (scripts/link_glibc.py, with zig: `pip install ziglang`): the wheel's
# library (make wheel), checked by tests/consumers.
LINK_GLIBC ?= 2.28
$(BUILD)/glibc/libgcol.so: $(BUILD)/libgcol.so
	@mkdir -p $(@D)
	$(PYTHON) scripts/link_glibc.py --glibc $(LINK_GLIBC) --nvcc $(NVCC) --archs '$(GPU_ARCHS)' \
	  --soname libgcol.so.$(VERSION_MAJOR) $@ $(LIB_OBJ)

# The kernel budget (issue 42): the shipped library's kernels per SASS target
# may grow at most 10% over src/kernel_budget.txt (measured with the default
# GPU_ARCHS); more means fewer instantiations, or a new budget line whose
# commit says why. Targets without a line are printed, not checked.
kernel-budget: $(BUILD)/libgcol.so
	$(PYTHON) scripts/kernel_count.py --budget src/kernel_budget.txt $(BUILD)/libgcol.so

# ---- libgcol_nccl: the sharded map (only where NCCL is found) ---------------
# NCCL_HOME: a prefix with include/nccl.h and lib/ or lib64/libnccl.so; by
# default the CUDA toolkit's, then /usr, then /usr/local. Empty: not built.
NCCL_HOME ?= $(firstword $(foreach d,$(CUDA_HOME) /usr /usr/local,$(if $(wildcard $(d)/include/nccl.h),$(d))))
ifneq ($(NCCL_HOME),)
DIST_C     := src/dist/dist_plan.c src/dist/dist_map.c src/dist/dist_call.c src/dist/dist_group.c
DIST_CU    := src/dist/dist_kernels.cu
DIST_OBJ   := $(DIST_C:%.c=$(BUILD)/%.o) $(DIST_CU:%.cu=$(BUILD)/%.o)
NCCL_INC   := -isystem $(NCCL_HOME)/include
NCCL_LIBS  := -L$(NCCL_HOME)/lib -L$(NCCL_HOME)/lib64 -lnccl
DIST_ALL   := $(BUILD)/libgcol_nccl.a $(BUILD)/libgcol_nccl.so $(BUILD)/gcol_nccl_tests \
              $(BUILD)/examples/dist_wordcount $(BUILD)/bench/bench_dist
# `make` (and so `make install`) builds the library beside libgcol
all: $(BUILD)/libgcol_nccl.a $(BUILD)/libgcol_nccl.so
$(DIST_OBJ): CFLAGS += $(NCCL_INC)
$(DIST_OBJ): NVFLAGS += $(NCCL_INC)

$(BUILD)/libgcol_nccl.a: $(DIST_OBJ)
	rm -f $@ && ar rcs $@ $^

# Depends on libgcol.so.MAJOR and NCCL's shared library; its own CUDA runtime
# stays private as in libgcol.so.
$(BUILD)/libgcol_nccl.so: $(DIST_OBJ) $(CORE_OBJ) $(BUILD)/libgcol.so
	$(NVCC) -shared $(GPU_ARCHS) $(DIST_OBJ) $(CORE_OBJ) -L$(BUILD) -lgcol $(NCCL_LIBS) \
	  -Xlinker -soname=libgcol_nccl.so.$(VERSION_MAJOR) -Xlinker --exclude-libs=ALL -o $@

DIST_TEST_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/dist/*.c)) $(BUILD)/tests/harness.o $(BUILD)/tests/test_util.o
$(DIST_TEST_OBJ): CFLAGS += $(NCCL_INC)
$(BUILD)/gcol_nccl_tests: $(DIST_TEST_OBJ) $(BUILD)/libgcol_nccl.a $(BUILD)/libgcol_testing.a
	$(CC) $^ $(NCCL_LIBS) $(LDLIBS) -o $@

$(BUILD)/examples/dist_wordcount.o $(BUILD)/bench/bench_dist.o: CFLAGS += $(NCCL_INC)
$(BUILD)/examples/dist_wordcount: $(BUILD)/examples/dist_wordcount.o $(BUILD)/libgcol_nccl.a $(BUILD)/libgcol.a
	$(CC) $^ $(NCCL_LIBS) $(LDLIBS) -o $@
$(BUILD)/bench/bench_dist: $(BUILD)/bench/bench_dist.o $(BUILD)/bench/bench_common.o $(BUILD)/bench/bench_dist_data.o \
                          $(BUILD)/libgcol_nccl.a $(BUILD)/libgcol_testing.a
	$(CC) $^ $(NCCL_LIBS) $(LDLIBS) -o $@
endif

# ---- tests, examples, benchmarks -----------------------------------------------
TEST_SRC := $(wildcard tests/*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ += $(patsubst %.cu,$(BUILD)/%.o,$(wildcard tests/*.cu)) # kernels some tests launch
$(BUILD)/gcol_tests: $(TEST_OBJ) $(BUILD)/libgcol_testing.a
	$(CC) $^ $(LDLIBS) -o $@

$(BUILD)/examples/%: $(BUILD)/examples/%.o $(BUILD)/libgcol.a
	$(CC) $^ $(LDLIBS) -o $@

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(BUILD)/bench/bench_common.o $(BUILD)/libgcol_testing.a
	$(CC) $^ $(LDLIBS) -o $@

EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(filter-out examples/dist_%.c,$(wildcard examples/*.c)))
EXAMPLES += $(patsubst examples/%.cu,$(BUILD)/examples/%,$(wildcard examples/*.cu)) # device-API users
BENCHES  := $(BUILD)/bench/bench_map
BENCHES  += $(BUILD)/bench/bench_sssp
BENCHES  += $(BUILD)/bench/bench_compact
BENCHES  += $(BUILD)/bench/bench_map_growable
BENCHES  += $(BUILD)/bench/bench_multimap
BENCHES  += $(BUILD)/bench/bench_map_device
BENCHES  += $(BUILD)/bench/bench_call_overhead
BENCHES  += $(BUILD)/bench/bench_set
BENCHES  += $(BUILD)/bench/bench_sketch
BENCHES  += $(BUILD)/bench/bench_strmap
BENCHES  += $(BUILD)/bench/bench_u128 # issue 25: 16-byte keys
BENCHES  += $(BUILD)/bench/bench_floor # issues 23-24: the hardware floor of the DRAM-bound rows
# bench_compact also times cub::DeviceSelect::Flagged called directly
$(BUILD)/bench/bench_compact: $(BUILD)/bench/bench_compact_cub.o
# the floor kernels (bench/floor_kernels.cu): bench_floor prints them; the
# others print each row's share of its floor, measured in the same process
FLOOR_BENCHES := $(addprefix $(BUILD)/bench/,bench_floor bench_map bench_set bench_multimap bench_sketch)
$(FLOOR_BENCHES): $(BUILD)/bench/floor_kernels.o

# cuCollections as a peer in the same GPU run (issue 38): not part of test or
# bench. Our own harness; cuco's headers come from a snapshot outside the
# repository: make peer-cuco CUCO_INCLUDE=/path/to/cuCollections/include
PEER_CUCO := $(BUILD)/bench/peer_cuco
ifdef CUCO_INCLUDE
peer-cuco: $(PEER_CUCO)
$(BUILD)/bench/peer_cuco.o: bench/peer_cuco.cu bench/bench_common.h $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -std=c++17 $(GPU_ARCHS) -Iinclude -isystem $(CUDA_HOME)/include -isystem $(CUCO_INCLUDE) \
	  -DPEER_CUCO_INCLUDE='"$(CUCO_INCLUDE)"' --expt-extended-lambda --expt-relaxed-constexpr -c $< -o $@
# (bench_common.o names gcol_status_string: the archive the benches link)
$(PEER_CUCO): $(BUILD)/bench/peer_cuco.o $(BUILD)/bench/bench_common.o $(BUILD)/libgcol_testing.a
	$(CC) $^ $(LDLIBS) -o $@
else
peer-cuco:
	@echo "peer-cuco: give CUCO_INCLUDE=/path/to/cuCollections/include (a snapshot outside the repository;"
	@echo "  docs/testing-on-a-gpu.md says how); $(PEER_CUCO) is not built"
endif

# The public header must stay pure C11.
header-check:
	$(CC) -std=c11 -pedantic -Wall -Wextra -Werror -I include -I $(CUDA_HOME)/include -fsyntax-only -x c include/gcol/gcol.h
	$(if $(NCCL_HOME),$(CC) -std=c11 -pedantic -Wall -Wextra -Werror -I include -I $(CUDA_HOME)/include $(NCCL_INC) -fsyntax-only -x c include/gcol/gcol_nccl.h)

build-all: all $(BUILD)/gcol_tests $(EXAMPLES) $(BENCHES) $(DIST_ALL) header-check

# C suite, install + consumer checks, pytest; one combined summary line last.
test: build-all kernel-budget
	+@MAKE="$(MAKE)" CUDA_HOME="$(CUDA_HOME)" tests/run_all.sh $(BUILD)

demo: $(BUILD)/examples/map_demo
	$(BUILD)/examples/map_demo

# bench_dist only where NCCL was found (it is then part of DIST_ALL)
BENCH_DIST := $(filter %/bench_dist,$(DIST_ALL))
bench: $(BENCHES) $(BENCH_DIST)
	$(BUILD)/bench/bench_map
	$(BUILD)/bench/bench_map_growable
	$(BUILD)/bench/bench_sssp
	$(BUILD)/bench/bench_compact
	$(BUILD)/bench/bench_multimap
	$(BUILD)/bench/bench_map_device
	$(BUILD)/bench/bench_call_overhead
	$(BUILD)/bench/bench_set
	$(BUILD)/bench/bench_sketch
	$(BUILD)/bench/bench_strmap
	$(BUILD)/bench/bench_u128
	$(BUILD)/bench/bench_floor
	$(BENCH_DIST)

# ---- the release wheel --------------------------------------------------------
# SASS for every generation from Turing to Blackwell (T4, A100, A10/A40/RTX 30,
# L4/L40/RTX 40, H100/H200, B200, RTX 50) plus PTX of the newest, which later
# GPUs compile when they load it. Built in its own folder (WHEEL_BUILD), so
# build/'s objects keep their GPU_ARCHS. Slow: every kernel seven times.
WHEEL_ARCHS ?= -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
               -gencode arch=compute_86,code=sm_86 -gencode arch=compute_89,code=sm_89 \
               -gencode arch=compute_90,code=sm_90 -gencode arch=compute_100,code=sm_100 \
               -gencode arch=compute_120,code=sm_120 -gencode arch=compute_120,code=compute_120
WHEEL_BUILD ?= build-wheel
# The glibc whose symbol versions the wheel's library binds: its objects
# linked again against that glibc's stubs ($(BUILD)/glibc/libgcol.so below),
# so that a build on a newer system still runs on manylinux_2_28 (RHEL 8,
# where CUDA 13 starts). Empty: nvcc's link as it is, tagged by this
# system's glibc.
WHEEL_GLIBC ?= 2.28
WHEEL_LIB = $(WHEEL_BUILD)/$(if $(WHEEL_GLIBC),glibc/)libgcol.so
# the exact platform tag to insist on; by default the one WHEEL_GLIBC gives,
# empty: whatever tag the library can honestly carry
WHEEL_PLAT ?= $(if $(WHEEL_GLIBC),manylinux_$(subst .,_,$(WHEEL_GLIBC))_x86_64)
PYTHON ?= python3
wheel:
	$(MAKE) BUILD=$(WHEEL_BUILD) GPU_ARCHS='$(WHEEL_ARCHS)' LINK_GLIBC=$(WHEEL_GLIBC) $(WHEEL_LIB)
	rm -rf $(WHEEL_BUILD)/dist
	GCOL_PREBUILT_LIBRARY=$(abspath $(WHEEL_LIB)) $(PYTHON) -m pip wheel --no-deps \
	  --no-build-isolation -w $(WHEEL_BUILD)/dist .
	$(PYTHON) scripts/check_wheel.py $(if $(WHEEL_PLAT),--require $(WHEEL_PLAT)) $(WHEEL_BUILD)/dist/*.whl

bench-python: all
	GCOL_LIBRARY=$(BUILD)/libgcol.so python3 bench/bench_python.py

PREFIX ?= /usr/local
install: all
	@scripts/install "$(DESTDIR)$(PREFIX)" "$(PREFIX)" "$(BUILD)" "$(VERSION)" "$(CUDA_HOME)" "$(NCCL_HOME)"

uninstall:
	@scripts/uninstall "$(DESTDIR)$(PREFIX)"

clean:
	rm -rf $(BUILD)

.PHONY: all build-all test demo bench bench-python peer-cuco clean header-check kernel-budget install uninstall wheel FORCE
# The objects of benchmarks and examples come from pattern rules only: kept,
# not deleted as intermediates. (Not `.SECONDARY:` for every target: that
# made every target an intermediate, so a deleted library archive was not
# remade while the programs linked from it looked up to date.)
.SECONDARY: $(BENCHES:%=%.o) $(EXAMPLES:%=%.o)
# dependency files are only read, never remade (make's built-in %: %.o rule would
# otherwise try to "link" them from the map_instance_% pattern)
%.d: ;
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
