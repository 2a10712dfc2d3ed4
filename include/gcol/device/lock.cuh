/* Device mutual exclusion (CUDA C++, device code): a spin mutex over one
 * 32-bit word in global or shared memory, and a form for tiles.
 *
 * Memory ordering: lock/try_lock are device-scope acquire and unlock is a
 * device-scope release, through cuda::atomic_ref (libcu++), not volatile
 * plus __threadfence: what a holder wrote before unlock is visible to the
 * next holder after its lock, plain (non-atomic) loads and stores included,
 * and the compiler may not move them out of the critical section.
 *
 *   __device__ unsigned g_word;              (zero = unlocked)
 *   gcol::spin_mutex m(&g_word);
 *   m.lock();  ...plain reads and writes...  m.unlock();
 *   { gcol::lock_guard g(m); ... }           (the same, scoped)
 *
 * Lanes of one warp contending for one mutex: safe on sm_70 and later only.
 * Independent thread scheduling lets the lane that won keep running while
 * its warp-mates spin, so it reaches unlock. Before sm_70 a warp runs its
 * diverged lanes one path at a time and may spin forever; there, let one
 * lane per warp (or per tile) take the lock: tile_lock_guard below. gcol is
 * built for sm_80 and sm_90 only.
 *
 * Waiting: test-and-test-and-set (spin on a plain atomic load, so waiters
 * read L2 instead of hammering it with exchanges) with exponential back-off
 * by __nanosleep, 32 ns doubling to 1 us, so a long queue of waiters leaves
 * the L2 slice and the holder's issue slots alone.
 *
 * Deadlock rules: a thread must not take a mutex it holds (not recursive);
 * threads that take several must take them in one global order. */
#ifndef GCOL_DEVICE_LOCK_CUH
#define GCOL_DEVICE_LOCK_CUH

#include <cuda/atomic>

namespace gcol {

class spin_mutex {
 public:
  /* word: 0 when unlocked; 4-byte aligned, global or shared memory. */
  __device__ __forceinline__ explicit spin_mutex(unsigned *word) : w_(*word) {}

  /* One attempt; true if this thread now holds the mutex (acquire). */
  __device__ __forceinline__ bool try_lock() {
    unsigned expected = 0;
    return w_.compare_exchange_strong(expected, 1u, cuda::memory_order_acquire, cuda::memory_order_relaxed);
  }

  __device__ __forceinline__ void lock() {
    unsigned ns = 32;
    for (;;) {
      if (w_.load(cuda::memory_order_relaxed) == 0 && try_lock()) return;
      __nanosleep(ns);
      if (ns < 1024) ns *= 2;
    }
  }

  /* Release: the holder's writes become visible to the next holder. */
  __device__ __forceinline__ void unlock() { w_.store(0u, cuda::memory_order_release); }

 private:
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> w_;
};

/* Holds a mutex for the lifetime of a scope (one thread). */
class lock_guard {
 public:
  __device__ __forceinline__ explicit lock_guard(spin_mutex &m) : m_(m) { m_.lock(); }
  __device__ __forceinline__ ~lock_guard() { m_.unlock(); }
  lock_guard(const lock_guard &) = delete;
  lock_guard &operator=(const lock_guard &) = delete;

 private:
  spin_mutex &m_;
};

/* A tile (cooperative_groups thread_block_tile, 1..32 lanes) holds a mutex
 * for the lifetime of a scope: rank 0 locks, then tile.sync(); at the end
 * tile.sync(), then rank 0 unlocks. tile.sync() orders memory among the
 * tile's lanes, so with rank 0's acquire and release every lane may read and
 * write the protected data in between. Every lane of the tile must construct
 * the guard together (the tile converged), and the tile is one contender, so
 * this form is also the one that is safe before sm_70. */
template <class Tile>
class tile_lock_guard {
 public:
  __device__ __forceinline__ tile_lock_guard(const Tile &tile, spin_mutex &m) : t_(tile), m_(m) {
    if (t_.thread_rank() == 0) m_.lock();
    t_.sync();
  }
  __device__ __forceinline__ ~tile_lock_guard() {
    t_.sync();
    if (t_.thread_rank() == 0) m_.unlock();
  }
  tile_lock_guard(const tile_lock_guard &) = delete;
  tile_lock_guard &operator=(const tile_lock_guard &) = delete;

 private:
  const Tile &t_;
  spin_mutex &m_;
};

}  // namespace gcol
#endif
